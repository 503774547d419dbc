/// A hash table of 64-bit keys for the caches looked up for every
/// character of every label (`FontFace.shapeByCharacter`): Fibonacci
/// hashing and linear probing (Knuth, The Art of Computer Programming,
/// vol. 3, section 6.4), where Dictionary's SipHash of each key cost more
/// than the rest of a lookup. Holds at most `limit` entries; past that it
/// starts again empty, as the other caches of a face do. The key all ones
/// is not allowed (it marks an empty slot).
struct WordTable<Value> {
    private var keys: [UInt64]
    private var values: [Value?]
    private(set) var count = 0
    /// 64 minus log2 of the slot count: the hash's top bits pick the slot.
    private var shift: UInt64
    let limit: Int

    private static var empty: UInt64 { .max }

    init(limit: Int) {
        self.limit = limit
        keys = [UInt64](repeating: WordTable.empty, count: 64)
        values = [Value?](repeating: nil, count: 64)
        shift = 58
    }

    private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    subscript(key: UInt64) -> Value? {
        let mask = keys.count - 1
        var index = slot(key)
        while true {
            let found = keys[index]
            if found == key { return values[index] }
            if found == WordTable.empty { return nil }
            index = (index + 1) & mask
        }
    }

    /// Adds or replaces the value of `key`.
    mutating func set(_ value: Value, for key: UInt64) {
        precondition(key != WordTable.empty, "the all-ones key marks empty slots")
        if count >= limit { self = WordTable(limit: limit) }
        if 2 * (count + 1) > keys.count { grow() }
        let mask = keys.count - 1
        var index = slot(key)
        while keys[index] != WordTable.empty && keys[index] != key { index = (index + 1) & mask }
        if keys[index] == WordTable.empty { count += 1 }
        keys[index] = key
        values[index] = value
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [UInt64](repeating: WordTable.empty, count: oldKeys.count * 2)
        values = [Value?](repeating: nil, count: oldKeys.count * 2)
        shift -= 1
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where key != WordTable.empty {
            if let value { set(value, for: key) }
        }
    }
}
