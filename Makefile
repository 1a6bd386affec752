# cellmate — common tasks. `make help` lists them.
CARGO ?= cargo
BIN := target/release/cellmate
DEPTH ?= 6

.PHONY: help build run test perft bench lint fmt clean

help:
	@echo "build   release build of the engine ($(BIN))"
	@echo "run     build and start the engine (speaks UCI or XBoard on stdin/stdout)"
	@echo "test    the default test run (what CI runs)"
	@echo "perft   full-depth perft suites (minutes) and the start-position speed figure"
	@echo "bench   fixed-depth search bench: deterministic node count and nodes/s"
	@echo "lint    rustfmt check and clippy with warnings as errors"

build:
	$(CARGO) build --release

run: build
	$(BIN)

test:
	$(CARGO) test

# Every count of the 126-position suite to its full depth (up to 525M nodes per position),
# then the start position to DEPTH on one thread as a speed figure.
perft: build
	$(CARGO) test --release --test perft_suite -- --ignored --nocapture
	$(BIN) perft --variant chess --depth $(DEPTH)

bench: build
	$(BIN) bench

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

clean:
	$(CARGO) clean
