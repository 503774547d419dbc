# Pinmint. `make demo` and `make test` work on a fresh Debian machine with
# Swift installed: they install the C libraries they need first.

SWIFT ?= swift
RELEASE_BIN = .build/release
SCALES = 1 2 3

.PHONY: all deps build test demo bench bench-png fuzz reference clean

all: build

# libpng, FreeType (and pkg-config) from Debian when pkg-config cannot find them.
deps:
	@if ! pkg-config --exists libpng freetype2 2>/dev/null; then \
		echo "Installing libpng-dev, libfreetype-dev and pkg-config (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libpng-dev libfreetype-dev pkg-config zlib1g-dev; \
	fi

build: deps
	$(SWIFT) build -c release --product pinmint

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel

# Renders every reference scene at @1x, @2x and @3x into out/.
demo: build
	@mkdir -p out
	@for scene in Golden/scenes/*.svg; do \
		name=$$(basename $$scene .svg); \
		for s in $(SCALES); do \
			$(RELEASE_BIN)/pinmint render $$scene --scale $$s -o out/$$name@$${s}x.png || exit 1; \
		done; \
	done
	@echo "Rendered $$(ls out/*.png | wc -l) PNGs into out/"

# Render-only time per scene next to cairo's C API drawing the same scenes;
# then laying out and drawing the label "5200萬" (cold and warm glyph cache).
bench: deps
	@if ! pkg-config --exists cairo 2>/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2-dev; \
	fi
	@mkdir -p Benchmarks/.work
	$(SWIFT) build -c release --product PinmintBench
	cc -O2 Benchmarks/cairo/bench_cairo.c $$(pkg-config --cflags --libs cairo) -o Benchmarks/.work/bench_cairo
	$(RELEASE_BIN)/PinmintBench export Benchmarks/.work/scenes.replay
	Benchmarks/.work/bench_cairo Benchmarks/.work/scenes.replay 300 > Benchmarks/.work/cairo.txt
	$(RELEASE_BIN)/PinmintBench run --baseline Benchmarks/.work/cairo.txt
	$(RELEASE_BIN)/PinmintBench text
	$(MAKE) bench-png

# PNG encode (each --png mode against libpng's defaults, same run) and decode
# on the marker scenes and a 2048x2048 sheet; then oxipng on the same images
# when python3 can import pyoxipng (installed with pip if possible).
bench-png: deps
	@mkdir -p Benchmarks/.work/png
	$(SWIFT) build -c release --product PinmintBench
	$(RELEASE_BIN)/PinmintBench png --write Benchmarks/.work/png
	@python3 -c "import oxipng" 2>/dev/null || python3 -m pip install -q pyoxipng >/dev/null 2>&1 || true
	@if python3 -c "import oxipng" 2>/dev/null; then python3 tools/oxipng_compare.py Benchmarks/.work/png; \
	else echo "oxipng comparison skipped (python3 with pyoxipng not available)"; fi

# libFuzzer on the PNG decoder (C shim + Fuzz/fuzz_decode.c) under ASan and
# UBSan, seeded with Fuzz/corpus, PngSuite and Fuzz/regressions. FUZZ_SECONDS=600 for longer.
# A crash leaves its input in Fuzz/.work/; copy it to Fuzz/regressions/.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
fuzz: deps
	@command -v $(FUZZ_CC) >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang)
	@mkdir -p Fuzz/.work/corpus
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-ISources/CPNGShim/include Sources/CPNGShim/shim.c Fuzz/fuzz_decode.c \
		$$(pkg-config --cflags --libs libpng) -lz -lm -o Fuzz/.work/fuzz_decode 2>&1 | grep -v "Cannot export" || true
	Fuzz/.work/fuzz_decode Fuzz/.work/corpus Fuzz/corpus Tests/PinmintPNGTests/Resources/pngsuite Fuzz/regressions \
		-max_total_time=$(FUZZ_SECONDS) -max_len=32768 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=Fuzz/.work/ -print_final_stats=1

# Development only: regenerate Golden/reference/ with skia-python (pip install skia-python pillow numpy scipy).
reference:
	python3 tools/make_reference.py

clean:
	rm -rf .build out Benchmarks/.work Fuzz/.work
