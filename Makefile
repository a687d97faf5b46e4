# Patchbay — build, test, benchmark.
#
#   make test    install system packages if missing, build every product, run every test
#   make bench   run the benchmarks (Benchmarks/, release build)
#   make format  format the sources with the toolchain's swift-format

SWIFT ?= swift
SYSTEM_PACKAGES := libffi-dev libasound2-dev

.PHONY: all deps build test bench format clean

all: build

# Installs the Debian packages the build needs, when they are missing.
deps:
	@missing=""; \
	for pkg in $(SYSTEM_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q "install ok installed" \
	    || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "make: installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "make: missing system packages:$$missing" >&2; \
	    echo "make: install them with: sudo apt-get install -y$$missing" >&2; \
	    exit 1; \
	  fi; \
	fi

# Every product and test target of the root package, and the benchmark package.
build: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build --package-path Benchmarks

test: build
	$(SWIFT) test

bench: deps
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Benchmarks

clean:
	rm -rf .build Benchmarks/.build
