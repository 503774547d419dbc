# Pinmint. `make demo` and `make test` work on a fresh Debian machine with
# Swift installed: they install the C libraries they need first.

SWIFT ?= swift
RELEASE_BIN = .build/release
SCALES = 1 2 3

.PHONY: all deps build test demo bench reference clean

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

# Development only: regenerate Golden/reference/ with skia-python (pip install skia-python pillow numpy scipy).
reference:
	python3 tools/make_reference.py

clean:
	rm -rf .build out Benchmarks/.work
