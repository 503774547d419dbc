# Pinmint. `make demo` and `make test` work on a fresh Debian machine with
# Swift installed: they install the C libraries they need first.

SWIFT ?= swift
RELEASE_BIN = .build/release
SCALES = 1 2 3

.PHONY: all deps build install uninstall test-install test-consumer test-fonts test test-browser maplibre demo bench blend2d bench-frontier bench-png bench-diff bench-batch bench-svg fuzz fuzz-png-shim test-release reference clean

all: build

# libpng, FreeType, HarfBuzz, FriBidi, fontconfig, ICU (and pkg-config) from
# Debian when pkg-config cannot find them.
DEB_LIBRARIES = libpng-dev libfreetype-dev libharfbuzz-dev libfribidi-dev libfontconfig1-dev libicu-dev pkg-config zlib1g-dev
deps:
	@if ! pkg-config --exists libpng freetype2 harfbuzz fribidi fontconfig icu-uc 2>/dev/null; then \
		echo "Installing $(DEB_LIBRARIES) (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_LIBRARIES); \
	fi

# RELEASE_FLAGS=--static-swift-stdlib links the Swift runtime into the binary
# (82 MB instead of 12; a full rebuild whenever the flag changes), so that an
# installed pinmint runs where no Swift toolchain is.
build: deps
	$(SWIFT) build -c release --product pinmint $(RELEASE_FLAGS)

# `make install` (PREFIX=/usr/local by default; DESTDIR for staging) puts the
# release binary in PREFIX/bin and Pinmint's fonts, with their licences and
# README, in PREFIX/share/pinmint/fonts, where the binary looks first (beside
# its own real path; $PINMINT_FONTS overrides it; see `pinmint fonts`).
# The binary links the Swift runtime of the toolchain that built it, unless
# RELEASE_FLAGS=--static-swift-stdlib (see build).
PREFIX ?= /usr/local
FONT_FILES = $(sort $(wildcard Fonts/*.ttf Fonts/*.otf Fonts/*.txt)) Fonts/README.md
install: build
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/pinmint/fonts"
	install -m 755 $(RELEASE_BIN)/pinmint "$(DESTDIR)$(PREFIX)/bin/pinmint"
	install -m 644 $(FONT_FILES) "$(DESTDIR)$(PREFIX)/share/pinmint/fonts/"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/pinmint" $(addprefix "$(DESTDIR)$(PREFIX)/share/pinmint/fonts/,$(addsuffix ",$(notdir $(FONT_FILES))))
	@rmdir "$(DESTDIR)$(PREFIX)/share/pinmint/fonts" "$(DESTDIR)$(PREFIX)/share/pinmint" 2>/dev/null || true

# Installs into a temporary folder and runs the installed binary from an
# unrelated folder with an empty environment, with the checkout hidden where
# the system allows it; then uninstalls (see tools/test_install.sh).
test-install: build
	@sh tools/test_install.sh "$(MAKE)" $(RELEASE_BIN)/pinmint $(FONT_FILES)

# The colour emoji font the colour glyph tests find through fontconfig
# (Tests/PinmintTextTests/ColorGlyphTests.swift), from Debian when fc-list
# does not list it; without it those tests fail and say how to install it.
test-fonts:
	@if ! fc-list 2>/dev/null | grep -qi "Noto Color Emoji"; then \
		echo "Installing fonts-noto-color-emoji (apt-get)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-color-emoji; \
	fi

test: deps test-fonts
	python3 tools/public_api_docs.py --list --check
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	@$(MAKE) --no-print-directory test-release
	@$(MAKE) --no-print-directory test-install
	@$(MAKE) --no-print-directory test-consumer

# Pinmint as a dependency by version: Examples/ built and tested against a
# temporary git repository of the checkout tagged 0.1.0, resolved with
# `from: "0.1.0"`; prints the seconds each step took (tools/test_consumer.sh).
test-consumer: deps
	@sh tools/test_consumer.sh "$(SWIFT)"

# Pinmint's sprites in a real MapLibre GL JS 5.3.0 map in headless Chromium
# (software WebGL), checked by pixels at devicePixelRatio 1 and 2
# (Tests/Browser/README.md). Chromium from Debian (installed if missing; the
# test is skipped with one line only when it cannot be); MapLibre GL JS from
# `make maplibre`; numpy, Pillow and freetype-py pip-installed into
# .build/browser/python when python3 lacks them.
BROWSER_DIR = .build/browser
test-browser: build
	@command -v chromium >/dev/null || { echo "Installing chromium (apt-get)"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1; } || true
	@if ! command -v chromium >/dev/null; then echo "browser test skipped: Chromium could not be installed (apt-get install chromium failed)"; exit 0; fi; \
	$(MAKE) --no-print-directory maplibre || exit 2; \
	for module in numpy:numpy PIL:pillow freetype:freetype-py; do \
		PYTHONPATH=$(BROWSER_DIR)/python python3 -c "import $${module%%:*}" 2>/dev/null \
		|| python3 -m pip install -q --target $(BROWSER_DIR)/python $${module##*:} >/dev/null 2>&1 \
		|| { echo "browser test: pip could not install $${module##*:}"; exit 2; }; \
	done; \
	PYTHONPATH=$(BROWSER_DIR)/python python3 Tests/Browser/browser_test.py --pinmint $(RELEASE_BIN)/pinmint \
		--maplibre $(BROWSER_DIR)/maplibre --work $(BROWSER_DIR)/work

# MapLibre GL JS 5.3.0 (maplibre-gl.js and .css) into .build/browser/maplibre,
# from PyPI's maplibre 0.3.6 wheel, which ships it as maplibre/srcjs/
# (downloaded, not installed, and checked against its SHA-256 first).
MAPLIBRE_WHEEL = maplibre-0.3.6-py3-none-any.whl
MAPLIBRE_SHA256 = eeafab617d4a1b71c0c174c71405f67c4b4e494fe1b27968d4d2359bc160e277
maplibre:
	@test -f $(BROWSER_DIR)/maplibre/maplibre-gl.js && test -f $(BROWSER_DIR)/maplibre/maplibre-gl.css && exit 0; \
	mkdir -p $(BROWSER_DIR)/maplibre && \
	{ test -f $(BROWSER_DIR)/$(MAPLIBRE_WHEEL) || python3 -m pip download -q --no-deps --only-binary=:all: --retries 2 --timeout 30 \
		maplibre==0.3.6 -d $(BROWSER_DIR) >/dev/null; } && \
	echo "$(MAPLIBRE_SHA256)  $(BROWSER_DIR)/$(MAPLIBRE_WHEEL)" | sha256sum -c --status \
		|| { echo "$(BROWSER_DIR)/$(MAPLIBRE_WHEEL): missing or not the expected file (SHA-256)"; exit 2; }; \
	python3 -c "import sys, zipfile; wheel = zipfile.ZipFile(sys.argv[1]); \
		[open(sys.argv[2] + '/' + name, 'wb').write(wheel.read('maplibre/srcjs/' + name)) for name in ('maplibre-gl.js', 'maplibre-gl.css')]" \
		$(BROWSER_DIR)/$(MAPLIBRE_WHEEL) $(BROWSER_DIR)/maplibre

# What users run: the release build, with the flags that ship, checks every
# golden suite (pinmint golden, Pinmint's own fonts only) and replays every
# fuzz regression and seed (Fuzz/regressions/, Fuzz/corpus/) through its
# harness: each must be read or refused with one line, never crash.
GOLDEN_SUITES = Golden/markers Golden/reference Golden/samples
test-release: deps
	$(SWIFT) build -c release --product pinmint
	$(SWIFT) build -c release --product PinmintFuzz
	@for suite in $(GOLDEN_SUITES); do \
		report=$$($(RELEASE_BIN)/pinmint golden $$suite --no-system-fonts); status=$$?; \
		if [ $$status -eq 0 ]; then echo "$$suite: $$(echo "$$report" | tail -1)"; \
		else echo "$$report"; echo "$$suite: pinmint golden exited $$status"; exit 1; fi; \
	done
	@mkdir -p .build/fuzz-replay
	@for harness in $$($(RELEASE_BIN)/PinmintFuzz --list | cut -f1); do \
		folders=$$(for folder in Fuzz/regressions/$$harness Fuzz/corpus/$$harness; do test -d $$folder && echo $$folder; done); \
		$(RELEASE_BIN)/PinmintFuzz replay $$harness $$folders 2> .build/fuzz-replay/$$harness.log \
		|| { tail -5 .build/fuzz-replay/$$harness.log; echo "fuzz replay $$harness failed (.build/fuzz-replay/$$harness.log)"; exit 1; }; \
	done

# Renders the four seed markers with the seeds' own texts (PNG at @1x, @2x,
# @3x and their metadata) into out/, then every reference scene into out/scenes/;
# then a sprite of the seed markers (out/seeds.png/.json, @2x), a batch of
# price tags from docs/demo/listings.geojson (out/listings/) and out/demo.html,
# a map showing them placed by their anchors: MapLibre GL JS (make maplibre,
# copied into out/maplibre), else Leaflet from Debian's libjs-leaflet,
# installed if missing and possible, else plain HTML.
demo: build
	@mkdir -p out/scenes
	$(RELEASE_BIN)/pinmint render seed-price-tag --label 5200萬 --badge 成 --scale 1,2,3 -o out/price-tag.png --meta out/price-tag.json
	$(RELEASE_BIN)/pinmint render seed-callout --title 我是商户名 --subtitle 我是商户地址 --scale 1,2,3 -o out/callout.png --meta out/callout.json
	$(RELEASE_BIN)/pinmint render avatar --name 张三 --phone "138 0013 8000" --scale 1,2,3 -o out/avatar.png --meta out/avatar.json
	$(RELEASE_BIN)/pinmint render pin --label 1 --scale 1,2,3 -o out/pin.png --meta out/pin.json
	@for scene in Golden/scenes/*.svg; do \
		name=$$(basename $$scene .svg); \
		for s in $(SCALES); do \
			$(RELEASE_BIN)/pinmint render $$scene --scale $$s -o out/scenes/$$name@$${s}x.png || exit 1; \
		done; \
	done
	@echo "Rendered $$(ls out/*.png | wc -l) marker PNGs into out/ and $$(ls out/scenes/*.png | wc -l) scene PNGs into out/scenes/"
	$(RELEASE_BIN)/pinmint sprite docs/demo/seed-markers.json -o out/seeds --ratio 1,2
	$(RELEASE_BIN)/pinmint batch docs/demo/listings.geojson -o out/listings --style price-tag \
		--set label='{price}萬' --set badge='{deal}' --scale 1,2
	@mkdir -p out/maplibre; if $(MAKE) --no-print-directory maplibre >/dev/null 2>&1; then \
		cp $(BROWSER_DIR)/maplibre/maplibre-gl.js $(BROWSER_DIR)/maplibre/maplibre-gl.css out/maplibre/; \
	else echo "MapLibre GL JS not available (make maplibre failed): demo.html uses Leaflet or plain HTML"; fi
	@if [ ! -f /usr/share/javascript/leaflet/leaflet.js ]; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjs-leaflet) >/dev/null 2>&1 \
		|| echo "libjs-leaflet not installed: demo.html uses plain HTML"; \
	fi
	@if command -v python3 >/dev/null; then python3 tools/demo_page.py out; \
	else echo "python3 not found: out/demo.html not written (the PNGs, sprite and index are in out/)"; fi

# Render-only time per scene next to cairo's C API drawing the same scenes
# (the two alternated twenty times, each in a process of its own; ratios of each
# side's fastest round, since these machines run a process at one of two
# speeds), with Blend2D in the same rounds when its wheel can be had, and how
# far each of the three draws from the references, and what the flattening
# tolerance trades between the two (bench-frontier); then laying out and drawing the label "5200萬" (cold and warm
# glyph cache), then whole markers (price tags warm, of new widths, of a
# batch, every shape rasterized; the callout with a picture) against cairo's shapes.
bench: deps
	@if ! pkg-config --exists cairo 2>/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2-dev; \
	fi
	@mkdir -p Benchmarks/.work
	$(SWIFT) build -c release --product PinmintBench
	cc -O2 Benchmarks/cairo/bench_cairo.c $$(pkg-config --cflags --libs cairo) -o Benchmarks/.work/bench_cairo
	@$(MAKE) --no-print-directory blend2d
	$(RELEASE_BIN)/PinmintBench export Benchmarks/.work/scenes.replay
	$(RELEASE_BIN)/PinmintBench run --cairo Benchmarks/.work/bench_cairo Benchmarks/.work/scenes.replay \
		$$(test -x Benchmarks/.work/bench_blend2d && echo --blend2d Benchmarks/.work/bench_blend2d) --rounds 20
	$(RELEASE_BIN)/PinmintBench exactness --cairo Benchmarks/.work/bench_cairo \
		$$(test -x Benchmarks/.work/bench_blend2d && echo --blend2d Benchmarks/.work/bench_blend2d) Benchmarks/.work/scenes.replay
	@$(MAKE) --no-print-directory bench-frontier
	$(RELEASE_BIN)/PinmintBench text
	$(RELEASE_BIN)/PinmintBench markers --cairo Benchmarks/.work/bench_cairo Benchmarks/.work/scenes.replay --rounds 25
	$(MAKE) bench-svg
	$(MAKE) bench-png
	$(MAKE) bench-diff
	$(MAKE) bench-batch

# Blend2D, the renderer the speed target refers to, on the same replay: its
# static library comes from PyPI's blend2d-python 1.0.0 wheel (Blend2D 0.12.0,
# x86-64; downloaded, not installed, whatever python3 this is, and checked
# against its SHA-256 before it is unpacked and linked). Skipped with a note
# when the wheel cannot be had; `make bench` then times cairo and Pinmint only.
BLEND2D_DIR = Benchmarks/.work/blend2d
BLEND2D_WHEEL = blend2d_python-1.0.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl
BLEND2D_SHA256 = b3f34b7b118234932377168032a5ed64dc5d785d2dcc406d42e74af36e8339ff
blend2d:
	@mkdir -p $(BLEND2D_DIR)
	@test -f $(BLEND2D_DIR)/$(BLEND2D_WHEEL) || python3 -m pip download -q --no-deps --only-binary=:all: \
		--python-version 3.11 --platform manylinux_2_28_x86_64 --retries 0 --timeout 20 \
		blend2d-python==1.0.0 -d $(BLEND2D_DIR) >/dev/null 2>&1 || true
	@rm -rf $(BLEND2D_DIR)/blend2d Benchmarks/.work/bench_blend2d
	@if [ ! -f $(BLEND2D_DIR)/$(BLEND2D_WHEEL) ]; then \
		echo "Blend2D baseline skipped (the blend2d-python 1.0.0 wheel could not be downloaded)"; \
	elif ! echo "$(BLEND2D_SHA256)  $(BLEND2D_DIR)/$(BLEND2D_WHEEL)" | sha256sum -c --status; then \
		echo "Blend2D baseline skipped ($(BLEND2D_DIR)/$(BLEND2D_WHEEL) is not the expected file: SHA-256 differs)"; \
	elif python3 -m zipfile -e $(BLEND2D_DIR)/$(BLEND2D_WHEEL) $(BLEND2D_DIR) && cc -O2 Benchmarks/blend2d/bench_blend2d.c \
		$(BLEND2D_DIR)/blend2d/libblend2d.a -lstdc++ -lm -lpthread -lrt -o Benchmarks/.work/bench_blend2d; then \
		echo "Blend2D baseline: Benchmarks/.work/bench_blend2d"; \
	else echo "Blend2D baseline skipped (the wheel's libblend2d.a does not link here)"; fi

# Speed against exactness: the scenes' time against cairo's and how many stay
# within the reference gate, with fills flattened from the gate's tolerance
# (0.01 px) to Blend2D's (0.2 px), Blend2D's own line beside them. Run after
# `make bench` has built the baselines (it runs this too).
bench-frontier: deps
	@test -x Benchmarks/.work/bench_cairo || { echo "run make bench first: it builds Benchmarks/.work/bench_cairo"; exit 2; }
	$(SWIFT) build -c release --product PinmintBench
	$(RELEASE_BIN)/PinmintBench export Benchmarks/.work/scenes.replay
	$(RELEASE_BIN)/PinmintBench frontier --cairo Benchmarks/.work/bench_cairo Benchmarks/.work/scenes.replay \
		$$(test -x Benchmarks/.work/bench_blend2d && echo --blend2d Benchmarks/.work/bench_blend2d) --rounds 20

# What resolving conflation costs SVGDocument.render(scale:) on every reference
# scene: against drawing its elements in turn (same run, alternated), pixels
# changed, and the work of drawing and of redrawing.
bench-svg: deps
	$(SWIFT) build -c release --product PinmintBench
	$(RELEASE_BIN)/PinmintBench svg

# Issue 7's targets: (a) 1,000 distinct price tags into a sprite at @1x and @2x;
# (b) 10,000 price tags into PNG files with an index, 1 and 2 jobs (markers/s,
# speed-up), on disk and on tmpfs; where one marker's time goes; peak memory
# for 2,000 and 10,000 markers.
bench-batch: deps
	$(SWIFT) build -c release --product PinmintBench
	$(RELEASE_BIN)/PinmintBench batch --work Benchmarks/.work/batch

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

# pixelmatch-exact diff of 1024x1024 and 4096x4096 pairs (decoding excluded and
# included), then pixelmatch-fast (PyPI, numba) on the same pairs: same counts,
# speed-up printed (target >= 2x). Needs python3 with numpy, numba and Pillow
# (pip-installed if missing); pixelmatch-fast goes to Benchmarks/.work/python.
bench-diff: deps
	@mkdir -p Benchmarks/.work/diff
	$(SWIFT) build -c release --product PinmintBench
	$(RELEASE_BIN)/PinmintBench diff --write Benchmarks/.work/diff
	@python3 -c "import numba, numpy, PIL" 2>/dev/null || python3 -m pip install -q numba numpy pillow >/dev/null 2>&1 || true
	@if python3 -c "import numba, numpy, PIL" 2>/dev/null; then python3 tools/pixelmatch_fast_compare.py Benchmarks/.work/diff; \
	else echo "pixelmatch-fast comparison skipped (python3 with numba, numpy and Pillow not available)"; fi

# Every parser under libFuzzer: Sources/PinmintFuzz built with
# -sanitize=fuzzer,address (release, -DFUZZING), one harness at a time
# (FUZZ_HARNESSES; `.build/fuzz/release/PinmintFuzz --list` names them),
# FUZZ_SECONDS each, FUZZ_JOBS at once, seeded with Fuzz/corpus/HARNESS and
# Fuzz/regressions/HARNESS; then the C harness on the libpng shim under ASan
# and UBSan. New corpus entries go to Fuzz/.work/corpus/HARNESS, a crash to
# Fuzz/.work/HARNESS-crash-*: minimise it (-minimize_crash=1), fix it, and
# keep it in Fuzz/regressions/HARNESS/, which `make test` replays.
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 2
FUZZ_HARNESSES ?= svg svg-render path-data transform color marker-json marker-render csv jsonl geojson png golden-conf
FUZZ_CC ?= clang
FUZZ_BIN = .build/fuzz/release/PinmintFuzz
# -timeout=60: AddressSanitizer and coverage make drawing about 40 times
# slower than the release build (a 1,541-byte SVG: 0.16 s shipped, 6.7 s
# here), so 60 s here is about 1.5 s in what ships.
FUZZ_FLAGS = -max_total_time=$(FUZZ_SECONDS) -timeout=60 -rss_limit_mb=2048 -max_len=65536 -detect_leaks=0 -print_final_stats=1
fuzz: deps
	@mkdir -p Fuzz/.work/logs
	$(SWIFT) build -c release --product PinmintFuzz --build-path .build/fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld > Fuzz/.work/logs/build.log 2>&1 \
		|| { grep -v "Cannot export" Fuzz/.work/logs/build.log | tail -30; exit 2; }
	@echo $(FUZZ_HARNESSES) | tr ' ' '\n' | xargs -P $(FUZZ_JOBS) -I{} sh -c '\
		mkdir -p Fuzz/.work/corpus/{} Fuzz/regressions/{}; \
		ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no $(FUZZ_BIN) {} Fuzz/.work/corpus/{} Fuzz/corpus/{} Fuzz/regressions/{} $(FUZZ_FLAGS) \
			-artifact_prefix=Fuzz/.work/{}- > Fuzz/.work/logs/{}.log 2>&1; \
		status=$$?; \
		echo "{}: exit $$status, $$(grep -o "stat::number_of_executed_units: [0-9]*" Fuzz/.work/logs/{}.log | grep -o "[0-9]*$$") executions (Fuzz/.work/logs/{}.log)"; \
		exit $$status'
	@$(MAKE) --no-print-directory fuzz-png-shim

# libFuzzer on the PNG decoder's C shim (Fuzz/fuzz_decode.c) under ASan and
# UBSan, seeded with Fuzz/corpus/png, PngSuite and Fuzz/regressions/png.
fuzz-png-shim: deps
	@command -v $(FUZZ_CC) >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang)
	@mkdir -p Fuzz/.work/corpus/png-shim
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-ISources/CPNGShim/include Sources/CPNGShim/shim.c Fuzz/fuzz_decode.c \
		$$(pkg-config --cflags --libs libpng) -lz -lm -o Fuzz/.work/fuzz_decode 2>&1 | grep -v "Cannot export" || true
	Fuzz/.work/fuzz_decode Fuzz/.work/corpus/png-shim Fuzz/corpus/png Tests/PinmintPNGTests/Resources/pngsuite Fuzz/regressions/png \
		-max_total_time=$(FUZZ_SECONDS) -max_len=32768 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=Fuzz/.work/png-shim- -print_final_stats=1

# Development only: regenerate Golden/reference/ with skia-python (pip install skia-python pillow numpy scipy).
reference:
	python3 tools/make_reference.py

clean:
	rm -rf .build out Benchmarks/.work Fuzz/.work Examples/.build
