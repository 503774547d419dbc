import Foundation

// libFuzzer's entry when this program is built with `-sanitize=fuzzer`
// (and `-DFUZZING`): `main` stays ours, and hands libFuzzer the harness it
// named through `LLVMFuzzerRunDriver` (libFuzzer's documented way to drive
// it from a program's own main, https://llvm.org/docs/LibFuzzer.html).

#if FUZZING
/// The harness libFuzzer's callback runs (set once, before the driver starts).
nonisolated(unsafe) private var fuzzedHarness: Harness? = nil

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Runs libFuzzer on `harness` with `flags` (its own: -max_total_time=…,
/// corpus folders); a broken promise aborts, so that libFuzzer keeps the input.
func fuzz(_ harness: Harness, flags: [String]) -> Int32 {
    fuzzedHarness = harness
    var argv: [UnsafeMutablePointer<CChar>?] = ([CommandLine.arguments[0]] + flags).map { strdup($0) } + [nil]
    var argc = CInt(flags.count + 1)
    return argv.withUnsafeMutableBufferPointer { buffer in
        var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
        return LLVMFuzzerRunDriver(&argc, &pointer) { data, size in
            let bytes = size == 0 ? [] : [UInt8](UnsafeBufferPointer(start: data, count: size))
            do throws(HarnessFailure) { try fuzzedHarness!.run(bytes) } catch {
                printError("\(fuzzedHarness!.name): FAILED: \(error)")
                abort()
            }
            return 0
        }
    }
}
#else
func fuzz(_ harness: Harness, flags: [String]) -> Int32 {
    printError("PinmintFuzz: this build has no fuzzer; build it with 'make fuzz' (or use 'replay')")
    return 2
}
#endif
