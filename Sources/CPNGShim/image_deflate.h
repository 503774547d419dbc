// A deflate compressor for filtered PNG rows (private to CPNGShim).
//
// zlib's match finder hashes every byte it passes; on marker images (long
// transparent and flat runs, anti-aliased edges) that bookkeeping is most of
// the encoding time. This one looks where image data repeats: the previous
// pixel, the pixel above, and four hashed earlier positions, and codes the
// result with dynamic Huffman blocks (RFC 1951). The same idea as fpng and
// fpnge (fast PNG encoders that match only pixel runs and rows above);
// written from the RFC.
//
// Implementation in this header, with internal linkage, included by shim.c
// only: CPNGShim stays one C translation unit because valgrind 3.19 (the
// profiler the benchmarks use) misreads the DWARF 5 debug information of
// every C file after the first and refuses to run the binary.
#ifndef PINMINT_IMAGE_DEFLATE_H
#define PINMINT_IMAGE_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

/// Compresses `data[start..<end]` as raw deflate blocks (no zlib header).
/// Matches may reach back into `data[0..<start]` (at most 32 KiB), which the
/// decoder must already have inflated: so consecutive parts compressed
/// separately (even at the same time) concatenate into one stream. A part
/// that is not `last` ends with an empty stored block (byte-aligned, like
/// zlib's Z_SYNC_FLUSH); the last part's final block has BFINAL set.
/// `pixel_bytes` is the distance to the previous pixel, `row_stride` the
/// distance to the same byte in the row above (filter byte included).
/// The output depends only on the arguments. Returns 0 when out of memory;
/// on success `*output` is malloc'ed (free it) and holds `*output_size` bytes.
static int pinmint_image_deflate(const uint8_t *data, size_t data_size, size_t start, size_t end,
                                 size_t pixel_bytes, size_t row_stride, int last,
                                 uint8_t **output, size_t *output_size);

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// MARK: Constants (RFC 1951)

enum {
    pinmint_window = 32768,
    pinmint_min_match = 3,
    pinmint_max_match = 258,
    /// Tokens per block: small enough to adapt the codes to changing content, as zlib's 16 Ki symbols.
    pinmint_block_tokens = 16384,
    /// The hash table: 4096 buckets of the 4 latest positions of a 4-byte sequence hashing there.
    pinmint_hash_bits = 12,
    pinmint_hash_ways = 4,
    /// Matches shorter than this get the positions inside them hashed too (longer ones are runs
    /// and copied rows, found again through the fixed distances).
    pinmint_hash_inside_below = 16,
    /// Matches shorter than this are checked against a match one byte later (lazy evaluation).
    pinmint_lazy_below = 32,
    pinmint_literal_symbols = 286,  // 0...255 literals, 256 end of block, 257...285 lengths
    pinmint_distance_symbols = 30,
    pinmint_length_code_symbols = 19,
    pinmint_end_of_block = 256,
};

/// The order in which code-length code lengths are sent.
static const uint8_t pinmint_length_code_order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };

// MARK: Bit output

/// Least significant bit first, as deflate packs bits.
struct pinmint_bits {
    uint8_t *bytes;
    size_t size;
    uint64_t pending;
    int pending_count;
};

static inline void pinmint_put_bits(struct pinmint_bits *bits, uint32_t value, int count) {
    bits->pending |= (uint64_t)value << bits->pending_count;
    bits->pending_count += count;
    if (bits->pending_count >= 32) {
        uint8_t *target = bits->bytes + bits->size;
        target[0] = (uint8_t)bits->pending;
        target[1] = (uint8_t)(bits->pending >> 8);
        target[2] = (uint8_t)(bits->pending >> 16);
        target[3] = (uint8_t)(bits->pending >> 24);
        bits->size += 4;
        bits->pending >>= 32;
        bits->pending_count -= 32;
    }
}

/// Pads with zero bits to a byte boundary and writes out every whole byte.
static void pinmint_align(struct pinmint_bits *bits) {
    while (bits->pending_count > 0) {
        bits->bytes[bits->size++] = (uint8_t)bits->pending;
        bits->pending >>= 8;
        bits->pending_count = bits->pending_count > 8 ? bits->pending_count - 8 : 0;
    }
    bits->pending = 0;
}

// MARK: Symbols

/// Length 3...258 → symbol 257...285, with its extra bits.
static inline void pinmint_length_symbol(unsigned length, unsigned *symbol, unsigned *extra_count, unsigned *extra) {
    unsigned offset = length - 3;
    if (offset < 8) { *symbol = 257 + offset; *extra_count = 0; *extra = 0; return; }
    if (offset == 255) { *symbol = 285; *extra_count = 0; *extra = 0; return; }
    unsigned log = 31 - (unsigned)__builtin_clz(offset);  // 3...7
    unsigned shift = log - 2;
    *symbol = 257 + 4 * (log - 1) + ((offset >> shift) & 3);
    *extra_count = shift;
    *extra = offset & ((1u << shift) - 1);
}

/// Distance 1...32768 → symbol 0...29, with its extra bits.
static inline void pinmint_distance_symbol(unsigned distance, unsigned *symbol, unsigned *extra_count, unsigned *extra) {
    unsigned offset = distance - 1;
    if (offset < 4) { *symbol = offset; *extra_count = 0; *extra = 0; return; }
    unsigned log = 31 - (unsigned)__builtin_clz(offset);  // 2...14
    unsigned shift = log - 1;
    *symbol = 2 * log + ((offset >> shift) & 1);
    *extra_count = shift;
    *extra = offset & ((1u << shift) - 1);
}

// MARK: Huffman codes

/// The symbols with non-zero frequency, ordered by (frequency, symbol), into `symbols`; returns how
/// many. A stable least-significant-digit radix sort on the frequency, a byte per pass (symbols go
/// in ascending, so equal frequencies keep that order): linear, where an insertion sort by frequency
/// was quadratic in the symbols used and most of a small image's Huffman time.
static int pinmint_sort_symbols(const uint32_t *frequencies, int symbol_count, int *symbols) {
    int scratch[pinmint_literal_symbols];
    int used = 0;
    uint32_t largest = 0;
    for (int symbol = 0; symbol < symbol_count; symbol++) {
        if (!frequencies[symbol]) continue;
        symbols[used++] = symbol;
        if (frequencies[symbol] > largest) largest = frequencies[symbol];
    }
    int *source = symbols, *target = scratch;
    for (int shift = 0; shift < 32 && (largest >> shift) > 0; shift += 8) {
        int starts[257] = { 0 };
        for (int index = 0; index < used; index++) starts[((frequencies[source[index]] >> shift) & 0xff) + 1]++;
        for (int digit = 0; digit < 256; digit++) starts[digit + 1] += starts[digit];
        for (int index = 0; index < used; index++) target[starts[(frequencies[source[index]] >> shift) & 0xff]++] = source[index];
        int *swap = source; source = target; target = swap;
    }
    if (source != symbols) memcpy(symbols, source, sizeof(int) * (size_t)used);
    return used;
}

/// Code lengths of at most `limit` bits for `frequencies` (optimal Huffman
/// lengths from the two-queue construction, then the longest codes folded
/// back under the limit keeping the Kraft sum at 1, as miniz does). At
/// least two symbols must have non-zero frequency. Deterministic: ties are
/// broken by symbol.
static void pinmint_code_lengths(const uint32_t *frequencies, int symbol_count, int limit, uint8_t *lengths) {
    int symbols[pinmint_literal_symbols];
    memset(lengths, 0, (size_t)symbol_count);
    int used = pinmint_sort_symbols(frequencies, symbol_count, symbols);
    if (used == 1) { lengths[symbols[0]] = 1; return; }
    if (used == 0) return;
    // Leaves 0..<used (ascending weight), internal nodes used..<2*used-1 created in ascending weight.
    uint32_t weight[2 * pinmint_literal_symbols];
    int parent[2 * pinmint_literal_symbols];
    int depth[2 * pinmint_literal_symbols];
    for (int index = 0; index < used; index++) weight[index] = frequencies[symbols[index]];
    int next_leaf = 0, next_node = used, created = used;
    for (int merge = 0; merge < used - 1; merge++) {
        int pair[2];
        for (int pick = 0; pick < 2; pick++) {
            if (next_leaf < used && (next_node >= created || weight[next_leaf] <= weight[next_node])) {
                pair[pick] = next_leaf++;
            } else {
                pair[pick] = next_node++;
            }
        }
        weight[created] = weight[pair[0]] + weight[pair[1]];
        parent[pair[0]] = created;
        parent[pair[1]] = created;
        created++;
    }
    int root = created - 1;
    depth[root] = 0;
    for (int node = root - 1; node >= 0; node--) depth[node] = depth[parent[node]] + 1;
    int count_per_length[16] = { 0 };
    for (int leaf = 0; leaf < used; leaf++) count_per_length[depth[leaf] > limit ? limit : depth[leaf]]++;
    uint32_t kraft = 0;
    for (int length = 1; length <= limit; length++) kraft += (uint32_t)count_per_length[length] << (limit - length);
    while (kraft > (1u << limit)) {
        // Take a code off the longest length and split a shorter code into two: the sum drops by one unit.
        count_per_length[limit]--;
        for (int length = limit - 1; length > 0; length--) {
            if (count_per_length[length]) {
                count_per_length[length]--;
                count_per_length[length + 1] += 2;
                break;
            }
        }
        kraft--;
    }
    // Least frequent symbols get the longest codes.
    int leaf = 0;
    for (int length = limit; length >= 1; length--) {
        for (int index = 0; index < count_per_length[length]; index++) lengths[symbols[leaf++]] = (uint8_t)length;
    }
}

/// Canonical codes (RFC 1951 3.2.2), bit-reversed for the least-significant-first writer.
static void pinmint_codes(const uint8_t *lengths, int symbol_count, uint16_t *codes) {
    uint16_t count_per_length[16] = { 0 }, next[16] = { 0 };
    for (int symbol = 0; symbol < symbol_count; symbol++) count_per_length[lengths[symbol]]++;
    count_per_length[0] = 0;
    uint16_t code = 0;
    for (int length = 1; length < 16; length++) {
        code = (uint16_t)((code + count_per_length[length - 1]) << 1);
        next[length] = code;
    }
    for (int symbol = 0; symbol < symbol_count; symbol++) {
        int length = lengths[symbol];
        if (!length) { codes[symbol] = 0; continue; }
        uint16_t value = next[length]++;
        codes[symbol] = (uint16_t)(__builtin_bitreverse16(value) >> (16 - length));
    }
}

/// Makes sure at least two symbols are in use, so every code is complete.
static void pinmint_two_symbols(uint32_t *frequencies, int symbol_count) {
    int used = 0;
    for (int symbol = 0; symbol < symbol_count; symbol++) used += frequencies[symbol] != 0;
    for (int symbol = 0; used < 2 && symbol < symbol_count; symbol++) {
        if (!frequencies[symbol]) { frequencies[symbol] = 1; used++; }
    }
}

// MARK: Blocks

/// A token: a literal byte (distance 0) or a match (length, distance).
typedef struct {
    uint16_t value;     // literal byte or match length
    uint16_t distance;  // 0 for a literal; 1...32768 stored as distance - 1 + 1 (32768 fits)
} pinmint_token;

/// Writes one block of tokens covering `data[block_start..<block_end]`:
/// dynamic Huffman, or stored when that is smaller.
static void pinmint_write_block(struct pinmint_bits *bits, const pinmint_token *tokens, size_t token_count,
                                const uint8_t *data, size_t block_start, size_t block_end, int final) {
    uint32_t literal_frequencies[pinmint_literal_symbols] = { 0 };
    uint32_t distance_frequencies[pinmint_distance_symbols] = { 0 };
    uint64_t extra_bits = 0;
    for (size_t index = 0; index < token_count; index++) {
        pinmint_token token = tokens[index];
        if (!token.distance) { literal_frequencies[token.value]++; continue; }
        unsigned symbol, extra_count, extra;
        pinmint_length_symbol(token.value, &symbol, &extra_count, &extra);
        literal_frequencies[symbol]++;
        extra_bits += extra_count;
        pinmint_distance_symbol(token.distance, &symbol, &extra_count, &extra);
        distance_frequencies[symbol]++;
        extra_bits += extra_count;
    }
    literal_frequencies[pinmint_end_of_block] = 1;
    pinmint_two_symbols(literal_frequencies, pinmint_literal_symbols);
    pinmint_two_symbols(distance_frequencies, pinmint_distance_symbols);
    uint8_t literal_lengths[pinmint_literal_symbols], distance_lengths[pinmint_distance_symbols];
    pinmint_code_lengths(literal_frequencies, pinmint_literal_symbols, 15, literal_lengths);
    pinmint_code_lengths(distance_frequencies, pinmint_distance_symbols, 15, distance_lengths);
    int literal_count = pinmint_literal_symbols, distance_count = pinmint_distance_symbols;
    while (literal_count > 257 && !literal_lengths[literal_count - 1]) literal_count--;
    while (distance_count > 1 && !distance_lengths[distance_count - 1]) distance_count--;
    uint8_t lengths[pinmint_literal_symbols + pinmint_distance_symbols];  // both, as sent
    memcpy(lengths, literal_lengths, (size_t)literal_count);
    memcpy(lengths + literal_count, distance_lengths, (size_t)distance_count);

    // The code lengths, run-length coded with 16 (repeat previous), 17 and 18 (zeros).
    uint8_t runs[pinmint_literal_symbols + pinmint_distance_symbols];
    uint8_t run_extra[pinmint_literal_symbols + pinmint_distance_symbols];
    int run_count = 0, total = literal_count + distance_count;
    uint32_t length_code_frequencies[pinmint_length_code_symbols] = { 0 };
    for (int index = 0; index < total;) {
        uint8_t length = lengths[index];
        int repeat = 1;
        while (index + repeat < total && lengths[index + repeat] == length) repeat++;
        if (length == 0 && repeat >= 3) {
            int taken = repeat > 138 ? 138 : repeat;
            runs[run_count] = taken >= 11 ? 18 : 17;
            run_extra[run_count++] = (uint8_t)(taken >= 11 ? taken - 11 : taken - 3);
            index += taken;
        } else if (length != 0 && repeat >= 4) {
            runs[run_count] = length;
            run_extra[run_count++] = 0;
            int taken = repeat - 1 > 6 ? 6 : repeat - 1;
            runs[run_count] = 16;
            run_extra[run_count++] = (uint8_t)(taken - 3);
            index += 1 + taken;
        } else {
            runs[run_count] = length;
            run_extra[run_count++] = 0;
            index++;
        }
    }
    for (int index = 0; index < run_count; index++) length_code_frequencies[runs[index]]++;
    pinmint_two_symbols(length_code_frequencies, pinmint_length_code_symbols);
    uint8_t length_code_lengths[pinmint_length_code_symbols];
    pinmint_code_lengths(length_code_frequencies, pinmint_length_code_symbols, 7, length_code_lengths);
    int length_code_count = pinmint_length_code_symbols;
    while (length_code_count > 4 && !length_code_lengths[pinmint_length_code_order[length_code_count - 1]]) length_code_count--;

    // Cost in bits of the dynamic block against a stored one.
    uint64_t dynamic_bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)length_code_count + extra_bits;
    for (int index = 0; index < run_count; index++) {
        uint8_t run = runs[index];
        dynamic_bits += length_code_lengths[run] + (run == 16 ? 2 : run == 17 ? 3 : run == 18 ? 7 : 0);
    }
    for (int symbol = 0; symbol < pinmint_literal_symbols; symbol++) {
        dynamic_bits += (uint64_t)literal_frequencies[symbol] * literal_lengths[symbol];
    }
    for (int symbol = 0; symbol < pinmint_distance_symbols; symbol++) {
        dynamic_bits += (uint64_t)distance_frequencies[symbol] * distance_lengths[symbol];
    }
    size_t raw = block_end - block_start;
    uint64_t stored_bits = 8 * ((uint64_t)raw + 5 * ((raw + 65534) / 65535 + (raw == 0))) + 8;
    if (stored_bits < dynamic_bits) {
        size_t offset = block_start;
        do {
            size_t piece = block_end - offset > 65535 ? 65535 : block_end - offset;
            int piece_final = final && offset + piece == block_end;
            pinmint_put_bits(bits, (uint32_t)piece_final, 3);  // BTYPE 00
            pinmint_align(bits);
            bits->bytes[bits->size++] = (uint8_t)piece;
            bits->bytes[bits->size++] = (uint8_t)(piece >> 8);
            bits->bytes[bits->size++] = (uint8_t)~piece;
            bits->bytes[bits->size++] = (uint8_t)(~piece >> 8);
            memcpy(bits->bytes + bits->size, data + offset, piece);
            bits->size += piece;
            offset += piece;
        } while (offset < block_end);
        return;
    }

    uint16_t literal_codes[pinmint_literal_symbols], distance_codes[pinmint_distance_symbols];
    uint16_t length_code_codes[pinmint_length_code_symbols];
    pinmint_codes(literal_lengths, pinmint_literal_symbols, literal_codes);
    pinmint_codes(distance_lengths, pinmint_distance_symbols, distance_codes);
    pinmint_codes(length_code_lengths, pinmint_length_code_symbols, length_code_codes);
    pinmint_put_bits(bits, (uint32_t)(final ? 1 : 0) | (2u << 1), 3);  // BFINAL, BTYPE 10
    pinmint_put_bits(bits, (uint32_t)(literal_count - 257), 5);
    pinmint_put_bits(bits, (uint32_t)(distance_count - 1), 5);
    pinmint_put_bits(bits, (uint32_t)(length_code_count - 4), 4);
    for (int index = 0; index < length_code_count; index++) {
        pinmint_put_bits(bits, length_code_lengths[pinmint_length_code_order[index]], 3);
    }
    for (int index = 0; index < run_count; index++) {
        uint8_t run = runs[index];
        pinmint_put_bits(bits, length_code_codes[run], length_code_lengths[run]);
        if (run == 16) pinmint_put_bits(bits, run_extra[index], 2);
        else if (run == 17) pinmint_put_bits(bits, run_extra[index], 3);
        else if (run == 18) pinmint_put_bits(bits, run_extra[index], 7);
    }
    for (size_t index = 0; index < token_count; index++) {
        pinmint_token token = tokens[index];
        if (!token.distance) {
            pinmint_put_bits(bits, literal_codes[token.value], literal_lengths[token.value]);
            continue;
        }
        unsigned symbol, extra_count, extra;
        pinmint_length_symbol(token.value, &symbol, &extra_count, &extra);
        pinmint_put_bits(bits, literal_codes[symbol], literal_lengths[symbol]);
        if (extra_count) pinmint_put_bits(bits, extra, (int)extra_count);
        pinmint_distance_symbol(token.distance, &symbol, &extra_count, &extra);
        pinmint_put_bits(bits, distance_codes[symbol], distance_lengths[symbol]);
        if (extra_count) pinmint_put_bits(bits, extra, (int)extra_count);
    }
    pinmint_put_bits(bits, literal_codes[pinmint_end_of_block], literal_lengths[pinmint_end_of_block]);
}

// MARK: Matching

/// How many bytes from `here` equal those from `earlier`, up to `limit`.
static inline size_t pinmint_match_length(const uint8_t *here, const uint8_t *earlier, size_t limit) {
    size_t length = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (length + 8 <= limit) {
        uint64_t first, second;
        memcpy(&first, here + length, 8);
        memcpy(&second, earlier + length, 8);
        uint64_t difference = first ^ second;
        if (difference) return length + ((size_t)__builtin_ctzll(difference) >> 3);
        length += 8;
    }
#endif
    while (length < limit && here[length] == earlier[length]) length++;
    return length;
}

static inline uint32_t pinmint_hash(const uint8_t *bytes) {
    uint32_t word;
    memcpy(&word, bytes, 4);
    return (word * 2654435761u) >> (32 - pinmint_hash_bits);
}

/// Where repeats are looked for: two fixed distances (previous pixel, row above) and a hash table of
/// the latest positions where 4-byte sequences were seen, stored as `base` + position + 1: an entry
/// of at most `base` is empty (left by an earlier image; see pinmint_thread_table).
struct pinmint_matcher {
    const uint8_t *data;
    size_t data_size;
    size_t distances[2];
    uint32_t *table;
    uint32_t base;
};

/// Records that the 4 bytes at `bytes` occur at `position` (the oldest of the bucket's four is dropped).
static inline void pinmint_remember(const struct pinmint_matcher *matcher, const uint8_t *bytes, size_t position) {
    uint32_t *bucket = matcher->table + (size_t)pinmint_hash(bytes) * pinmint_hash_ways;
    for (int way = pinmint_hash_ways - 1; way > 0; way--) bucket[way] = bucket[way - 1];
    bucket[0] = matcher->base + (uint32_t)(position + 1);
}

// MARK: The hash table, one per thread

/// Each thread keeps its hash table (64 KiB) from one image to the next instead of allocating and
/// clearing it per image, which cost a marker-sized image more than its matching (memset of 64 KiB
/// for 3 KiB of rows). Entries are offset by a base that grows past every value an image stored,
/// so what earlier images left reads as empty without clearing: the output is the same as with a
/// fresh table. (The idea of versioned entries instead of clearing is an old one; here from
/// generation counters in hash tables.) Freed when the thread ends.
struct pinmint_table_state {
    uint32_t *table;
    uint32_t base;
};
static _Thread_local struct pinmint_table_state pinmint_thread_table;
static pthread_key_t pinmint_table_key;
static pthread_once_t pinmint_table_once = PTHREAD_ONCE_INIT;

static void pinmint_free_table(void *table) {
    free(table);
    pinmint_thread_table.table = NULL;
}

static void pinmint_make_table_key(void) { pthread_key_create(&pinmint_table_key, pinmint_free_table); }

/// This thread's table, ready for an image of `data_size` bytes (positions below it); `*base` is
/// what the image's entries are offset by. NULL when out of memory.
static uint32_t *pinmint_claim_table(size_t data_size, uint32_t *base) {
    struct pinmint_table_state *state = &pinmint_thread_table;
    size_t entries = (size_t)pinmint_hash_ways << pinmint_hash_bits;
    if (!state->table) {
        pthread_once(&pinmint_table_once, pinmint_make_table_key);
        state->table = calloc(entries, sizeof(uint32_t));
        if (!state->table) return NULL;
        state->base = 0;
        pthread_setspecific(pinmint_table_key, state->table);
    }
    // Stored values go up to base + data_size: start again from a cleared table before they would wrap.
    if ((uint64_t)state->base + data_size + 1 >= UINT32_MAX) {
        memset(state->table, 0, entries * sizeof(uint32_t));
        state->base = 0;
    }
    *base = state->base;
    state->base += (uint32_t)data_size;
    return state->table;
}

struct pinmint_match {
    size_t length, distance;
};

/// The longest match at `position` (length 0 when shorter than the minimum); records `position` in the hash table.
static inline struct pinmint_match pinmint_find_match(struct pinmint_matcher *matcher, size_t position, size_t end) {
    size_t limit = end - position < pinmint_max_match ? end - position : pinmint_max_match;
    struct pinmint_match best = { 0, 0 };
    const uint8_t *here = matcher->data + position;
    for (int index = 0; index < 2; index++) {
        size_t distance = matcher->distances[index];
        if (distance == 0 || distance > position || distance > pinmint_window) continue;
        size_t length = pinmint_match_length(here, here - distance, limit);
        if (length > best.length) { best.length = length; best.distance = distance; }
    }
    if (best.length < limit && position + 4 <= matcher->data_size) {
        uint32_t *bucket = matcher->table + (size_t)pinmint_hash(here) * pinmint_hash_ways;
        for (int way = 0; way < pinmint_hash_ways; way++) {
            if (bucket[way] <= matcher->base) break;
            size_t earlier = bucket[way] - matcher->base;
            if (earlier > position || position + 1 - earlier > pinmint_window) break;
            size_t distance = position + 1 - earlier;
            size_t length = pinmint_match_length(here, here - distance, limit);
            if (length >= 4 && length > best.length) { best.length = length; best.distance = distance; }
        }
        pinmint_remember(matcher, here, position);
    }
    if (best.length < pinmint_min_match) best.length = 0;
    return best;
}

static int pinmint_image_deflate(const uint8_t *data, size_t data_size, size_t start, size_t end,
                                 size_t pixel_bytes, size_t row_stride, int last,
                                 uint8_t **output, size_t *output_size) {
    *output = NULL;
    *output_size = 0;
    size_t count = end - start;
    // Worst case: stored blocks (5 bytes per 65535) plus headers and the closing empty block.
    size_t capacity = count + 5 * (count / 65535 + 2) + 64 + (count / pinmint_block_tokens + 1) * 8;
    uint8_t *bytes = malloc(capacity + 8);
    // At most one token per byte (+ 1 so that an empty part allocates something).
    size_t token_capacity = count < pinmint_block_tokens ? count + 1 : pinmint_block_tokens;
    pinmint_token *tokens = malloc(sizeof(pinmint_token) * token_capacity);
    uint32_t base = 0;
    uint32_t *table = pinmint_claim_table(data_size, &base);
    if (!bytes || !tokens || !table) { free(bytes); free(tokens); return 0; }
    struct pinmint_bits bits = { bytes, 0, 0, 0 };

    struct pinmint_matcher matcher = { data, data_size, { pixel_bytes, row_stride }, table, base };
    size_t position = start, block_start = start, token_count = 0;
    struct pinmint_match match = pinmint_find_match(&matcher, position, end);
    while (position < end) {
        int take_match = match.length >= pinmint_min_match;
        struct pinmint_match next = { 0, 0 };
        if (take_match && match.length < pinmint_lazy_below && position + 1 < end) {
            // One step of lazy evaluation (as zlib's deflate_slow): a longer match one byte on wins.
            next = pinmint_find_match(&matcher, position + 1, end);
            if (next.length > match.length) take_match = 0;
        }
        if (take_match) {
            if (match.length < pinmint_hash_inside_below) {
                // position (and position + 1 when looked at lazily) are in the table already.
                size_t inside = position + 1 + (next.length != 0);
                for (; inside < position + match.length && inside + 4 <= data_size; inside++) {
                    pinmint_remember(&matcher, data + inside, inside);
                }
            }
            tokens[token_count].value = (uint16_t)match.length;
            tokens[token_count].distance = (uint16_t)match.distance;
            position += match.length;
        } else {
            tokens[token_count].value = data[position];
            tokens[token_count].distance = 0;
            position++;
        }
        if (++token_count == pinmint_block_tokens || position == end) {
            pinmint_write_block(&bits, tokens, token_count, data, block_start, position, last && position == end);
            block_start = position;
            token_count = 0;
        }
        if (position < end) {
            match = next.length && !take_match ? next : pinmint_find_match(&matcher, position, end);
        }
    }
    if (count == 0 && last) {
        pinmint_put_bits(&bits, 1 | (1u << 1), 3);  // an empty fixed-code final block: end of block is 0000000
        pinmint_put_bits(&bits, 0, 7);
    }
    if (!last) pinmint_put_bits(&bits, 0, 3);  // empty stored block: aligned, LEN 0, NLEN 0xffff
    pinmint_align(&bits);
    if (!last) {
        bytes[bits.size++] = 0; bytes[bits.size++] = 0; bytes[bits.size++] = 0xff; bytes[bits.size++] = 0xff;
    }
    free(tokens);
    *output = bytes;
    *output_size = bits.size;
    return 1;
}

#endif
