# cellmate — common tasks. `make help` lists them.
CARGO ?= cargo
# Cargo's target directory (CARGO_TARGET_DIR when set, as cargo itself reads it).
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
BIN := $(TARGET_DIR)/release/cellmate
DEPTH ?= 6

.PHONY: help baseline build run test perft bench fuzz fuzz-binary playouts latency soak memory time-safety lint fmt clean \
	verify-xboard verify-python verify-uci-clients gui gui-test gui-check gui-load serve-load host-check strength \
	conversion sprt nnue

help:
	@echo "build   release build of the engine ($(BIN))"
	@echo "run     build and start the engine (speaks UCI or XBoard on stdin/stdout)"
	@echo "test    the default test run (what CI runs)"
	@echo "perft   full-depth perft suites (minutes) and the start-position speed figure"
	@echo "bench   fixed-depth search bench: deterministic node count and nodes/s"
	@echo "fuzz    seeded fuzzing, FUZZ_INPUTS (1,000,000) inputs per target: FEN, move text, protocol lines"
	@echo "playouts  random playouts with per-ply checks, PLAYOUT_PLIES (10,000,000) plies over all variants"
	@echo "fuzz-binary  random protocol lines through the binary's stdin, FUZZ_LINES (1,000,000) per protocol"
	@echo "latency how fast stop / ? are answered, per variant and protocol"
	@echo "conversion  won games' lengths and draws per variant, CONVERSION_GAMES (20) v the random mover and v depth 1, 20,000 nodes a move"
	@echo "soak    self-play, SOAK_GAMES (1000) per variant at SOAK_TC (2+0.02): fails on any illegal move, forfeit, stall, crash"
	@echo "time-safety  self-play at 3+0.05, 2 games at once beside a CPU-bound process, LOAD_GAMES (200) per variant, LOAD_SEED (5) for the openings: fails on any time forfeit"
	@echo "memory  peak RSS per variant, Hash and Threads: fails above max(Hash, 16) + MEMORY_LIMIT_MB"
	@echo "lint    rustfmt check and clippy with warnings as errors"
	@echo "verify-xboard  real XBoard under Xvfb: cellmate v Fairy-Max and Sjaak II (not CI)"
	@echo "verify-python  python-chess drives cellmate over UCI and XBoard (not CI)"
	@echo "verify-uci-clients  python-chess's UCI layer and a bare pipe play every variant to its end (not CI)"
	@echo "gui     serve the board page on http://127.0.0.1:8080/ (docs/gui.md)"
	@echo "gui-test  headless Chromium + Playwright: another page cannot open the socket, every move kind of every variant entered with the mouse, checked against d; screenshots docs/gui-*.png; cellmate serve keeps a game across kill -9; a journey per variant at laptop and phone size (not CI)"
	@echo "gui-load  300 board sessions on loopback, searches in 50, all dropped: peak and final memory and threads (not CI)"
	@echo "serve-load  200 players at once against cellmate serve on loopback, two waves (engine 100 ms a move, 2 workers): every move answered, waits, queue, memory, threads (not CI; about 4 minutes)"
	@echo "gui-check  xdotool clicks every kind of move into a real XBoard per variant (not CI)"
	@echo "host-check  a user's journeys through a real XBoard per variant: modes, matches, new game, paste, load, retract, analysis, flag (not CI)"
	@echo "baseline  build issue 25's baseline (commit b8021db) aside as $(BASE_BIN) for the base-V rows of make strength"
	@echo "strength  the docs/strength.md results table: ROWS (all) of fairymax sjaakii depth1-V random-V, and sf-N base-V (hours)"
	@echo "nnue    the chess network: NNUE_GAMES (100000) self-play games at NNUE_NODES (1500) a move into NNUE_DIR, then NNUE_EPOCHS (20) of training into NNUE_DIR/chess.nnue (hours; docs/strength.md)"
	@echo "sprt    an SPRT of a change, NEW=BIN OLD=BIN SEED=N at SPRT_NODES (25000) a move from the balanced openings of SPRT_VARIANT (chess)"

build:
	$(CARGO) build --release

run: build
	$(BIN)

test:
	$(CARGO) test

# Every count of the 126-position suite to its full depth (up to 525M nodes per position),
# then the start position to DEPTH on one thread as a speed figure.
perft: build
	$(CARGO) test --release --test it perft_suite:: -- --ignored --nocapture
	$(BIN) perft --variant chess --depth $(DEPTH)

bench: build
	$(BIN) bench

# docs/reliability.md. The long forms of tests/it/fuzz.rs and tests/it/playouts.rs, with a time
# report per target. Fuzzing uses the test profile (opt-level 3 with overflow checks and debug
# assertions: an overflow is a finding); the playouts use --release.
FUZZ_INPUTS ?= 1000000
PLAYOUT_PLIES ?= 10000000
TEST_THREADS ?= 2

fuzz:
	FUZZ_INPUTS=$(FUZZ_INPUTS) $(CARGO) test --test it fuzz:: -- --ignored --nocapture \
		--test-threads $(TEST_THREADS)

# The binary fuzzer alone (also part of `make fuzz`): FUZZ_LINES mutated protocol lines per
# protocol through the real binary's stdin, liveness checked every 128 lines.
FUZZ_LINES ?= 1000000

fuzz-binary:
	FUZZ_INPUTS=$(FUZZ_LINES) $(CARGO) test --test it -- --ignored --nocapture \
		--test-threads 1 fuzz::long_binary

playouts:
	PLAYOUT_PLIES=$(PLAYOUT_PLIES) $(CARGO) test --release --test it playouts:: -- --ignored \
		--nocapture --test-threads $(TEST_THREADS)

# How fast `stop` (UCI) and `?` (XBoard) are answered: 100 searches per variant and protocol
# from the start (50-400 ms of search), then 100 deep in games (50-2000 ms; --deep).
latency: build
	python3 scripts/latency.py $(BIN) 100
	python3 scripts/latency.py $(BIN) 100 --deep

# How quickly won games are converted (docs/strength.md, "Converting won games"): per variant,
# CONVERSION_GAMES against the random mover and against the engine at depth 1, the engine at
# 20,000 nodes a move (CONVERSION_NODES); W/D/L, won games' plies, draw %. From the
# balanced openings instead of random plies: CONVERSION_OPENINGS=balanced; more of the
# engine's spec: CONVERSION_OPTIONS=option.Contempt=0 (the default is 50; scripts/conversion.py's header).
CONVERSION_GAMES ?= 20
conversion: build
	python3 scripts/conversion.py $(BIN) $(CONVERSION_GAMES)

# Self-play soak (docs/reliability.md): the engine against itself (UCI v XBoard) in every
# variant; fails unless the summary's `Faults:` counts (illegal moves, time forfeits, stalls over
# 2 s of silence while thinking, crashes, rules infractions) are all zero. Run on an idle
# machine: SOAK_CONCURRENCY at most the number of cores. SOAK_BIN=target/quick/cellmate skips
# the release build.
SOAK_GAMES ?= 1000
SOAK_TC ?= 2+0.02
SOAK_CONCURRENCY ?= 1
SOAK_MARGIN ?= 100
SOAK_DIR ?= /tmp/cellmate-soak
SOAK_BIN ?= $(BIN)

soak: $(if $(filter $(BIN),$(SOAK_BIN)),build)
	python3 scripts/soak.py $(SOAK_BIN) --games $(SOAK_GAMES) --tc $(SOAK_TC) \
		--concurrency $(SOAK_CONCURRENCY) --time-margin $(SOAK_MARGIN) --out $(SOAK_DIR)

# Time safety under load (docs/reliability.md): self-play at LOAD_TC (3+0.05), --concurrency 2,
# LOAD_GAMES (200) per variant, while another CPU-bound process (`yes`) runs on the machine;
# fails unless every variant's summary says forfeit=0.
LOAD_GAMES ?= 200
LOAD_TC ?= 3+0.05
LOAD_DIR ?= /tmp/cellmate-load
LOAD_VARIANTS ?= chess immune recursion microorganism
LOAD_SEED ?= 5

time-safety: build
	mkdir -p $(LOAD_DIR) && cp $(BIN) $(LOAD_DIR)/cellmate
	@yes > /dev/null & hog=$$!; trap "kill $$hog" EXIT; for v in $(LOAD_VARIANTS); do \
	  $(LOAD_DIR)/cellmate match --engine cmd=$(LOAD_DIR)/cellmate,name=a \
	    --engine cmd=$(LOAD_DIR)/cellmate,name=b --variant $$v --games $(LOAD_GAMES) \
	    --tc $(LOAD_TC) --concurrency 2 --random-plies 4 --seed $(LOAD_SEED) --quiet \
	    --pgn $(LOAD_DIR)/$$v.pgn | tee $(LOAD_DIR)/$$v.txt; \
	  grep -q 'forfeit=0 ' $(LOAD_DIR)/$$v.txt || exit 1; \
	done

# Peak RSS (VmHWM) during a 2 s search for Hash 1..1024 MB, Threads 1 and 2, every variant (UCI);
# fails when a peak is over max(Hash, 16) + MEMORY_LIMIT_MB (the README's statement).
MEMORY_LIMIT_MB ?= 10
MEMORY_BIN ?= $(BIN)

memory: $(if $(filter $(BIN),$(MEMORY_BIN)),build)
	python3 scripts/memory.py $(MEMORY_BIN) --movetime 2000 --limit-mb $(MEMORY_LIMIT_MB)

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

clean:
	$(CARGO) clean

# Real-program checks (docs/verification.md). Need xboard, Xvfb, fairymax and sjaakii in
# /usr/games and python-chess; not run in CI. Games and XBoard debug logs go to VERIFY_DIR.
XBOARD ?= /usr/games/xboard
VERIFY_DIR ?= /tmp/cellmate-verify
XVFB_DISPLAY ?= :99
TC ?= 0:30
XBOARD_MATCH = DISPLAY=$(XVFB_DISPLAY) $(XBOARD) -noGUI -xexit -matchPause 0 -soundProgram "" \
	-saveSettingsOnExit false -autoCallFlag true -fcp "$(abspath $(BIN))" -fd "$(VERIFY_DIR)" \
	-sd "$(VERIFY_DIR)" -mg 2 -debug

verify-xboard: build
	mkdir -p $(VERIFY_DIR)
	rm -f $(VERIFY_DIR)/*.pgn $(VERIFY_DIR)/*.debug
	@if ! xdpyinfo -display $(XVFB_DISPLAY) >/dev/null 2>&1; then \
		echo "starting Xvfb $(XVFB_DISPLAY)"; (Xvfb $(XVFB_DISPLAY) >/dev/null 2>&1 &); sleep 2; fi
	$(XBOARD_MATCH) -scp /usr/games/fairymax -tc $(TC) \
		-nameOfDebugFile $(VERIFY_DIR)/fairymax.debug -sgf $(VERIFY_DIR)/fairymax.pgn
	$(XBOARD_MATCH) -scp /usr/games/fairymax -tc 0:10 \
		-nameOfDebugFile $(VERIFY_DIR)/fairymax-fast.debug -sgf $(VERIFY_DIR)/fairymax-fast.pgn
	$(XBOARD_MATCH) -scp /usr/games/sjaakii -tc $(TC) \
		-nameOfDebugFile $(VERIFY_DIR)/sjaakii.debug -sgf $(VERIFY_DIR)/sjaakii.pgn
	@grep -h -E '^\[(White|Black|Result) |^\{' $(VERIFY_DIR)/*.pgn
	@! grep -i -E 'illegal|forfeit|false|on time|abort' $(VERIFY_DIR)/*.pgn
	@! grep -E '<(first|second): Illegal move' $(VERIFY_DIR)/*.debug

verify-python: build
	python3 scripts/python_chess_check.py $(BIN)

# A plain UCI client (python-chess's protocol layer, and a bare pipe) plays every variant to
# the end of the game: `bestmove (none)` after `info string game over SCORE {REASON}` (issue 21).
verify-uci-clients: build
	python3 scripts/uci_client_check.py $(BIN) --nodes 300
	python3 scripts/uci_client_check.py $(BIN) --nodes 1000

# docs/gui.md. The page in a real browser: Debian's chromium (apt-get install -y chromium) and
# playwright-core (npm, installed into tests/browser/node_modules on first use). SHOTS=0 skips
# rewriting the screenshots.
QUICK_BIN := $(TARGET_DIR)/quick/cellmate
CHROMIUM ?= /usr/bin/chromium

gui:
	$(CARGO) build --profile quick
	$(QUICK_BIN) gui

# docs/reliability.md "The browser board under load": loopback only, under a minute.
GUI_SESSIONS ?= 300
GUI_SEARCHING ?= 50
gui-load: build
	python3 scripts/gui_load.py $(BIN) $(GUI_SESSIONS) $(GUI_SEARCHING)

SERVE_PLAYERS ?= 200
SERVE_MOVES ?= 8
SERVE_MOVETIME ?= 100
SERVE_WORKERS ?= 2
serve-load: build
	WORKERS=$(SERVE_WORKERS) python3 scripts/serve_load.py $(BIN) $(SERVE_PLAYERS) $(SERVE_MOVES) $(SERVE_MOVETIME)

gui-test:
	@test -x $(CHROMIUM) || { echo "gui-test needs Chromium at $(CHROMIUM): apt-get install -y chromium" >&2; exit 1; }
	$(CARGO) build --profile quick
	cd tests/browser && { test -d node_modules/playwright-core || npm install --no-audit --no-fund; }
	CELLMATE=$(abspath $(QUICK_BIN)) CHROMIUM=$(CHROMIUM) node tests/browser/origin.test.mjs
	CELLMATE=$(abspath $(QUICK_BIN)) CHROMIUM=$(CHROMIUM) node tests/browser/gui.test.mjs
	CELLMATE=$(abspath $(QUICK_BIN)) CHROMIUM=$(CHROMIUM) node tests/browser/serve.test.mjs
	CELLMATE=$(abspath $(QUICK_BIN)) CHROMIUM=$(CHROMIUM) node tests/browser/journey.test.mjs

# docs/xboard.md "Moves with the mouse": per variant a real XBoard 4.9.1 under Xvfb (display
# GUI_DISPLAY, started if not running) in Edit Game mode; xdotool clicks one move of every kind,
# XBoard's board (Copy Position) is compared with the engine's after each, then the engine
# moves. Debug logs and report.txt in GUI_DIR, screenshots in docs/. Needs xdotool, xclip and
# imagemagick besides xboard and Xvfb.
GUI_DIR ?= /tmp/cellmate-gui
GUI_BIN ?= $(BIN)

gui-check:
	$(CARGO) build --release
	python3 scripts/gui_check.py $(GUI_BIN) $(GUI_DIR) docs

# docs/xboard.md "Journeys in XBoard": per variant a fresh XBoard 4.9.1 (Xvfb display
# HOST_DISPLAY, started if not running) for each journey (default mode, Machine White/Black,
# Two Machines, -mg 2 matches, New Game, Paste Position, Load Game, Retract Move, analysis, a
# flag); one PASS/FAIL line each, non-zero exit on a failure. Debug logs and report.txt in
# HOST_DIR, screenshots docs/host-check-*.png. HOST_ONLY="chess recursion:paste,flag" runs
# some; HOST_FIXTURES=1 rewrites protocol-fixtures/xboard-journey-*.fixture from the logs.
HOST_DIR ?= /tmp/cellmate-host
HOST_BIN ?= $(BIN)
HOST_DISPLAY ?= :97
HOST_ONLY ?=

host-check:
	$(CARGO) build --release
	HOST_DISPLAY=$(HOST_DISPLAY) python3 scripts/host_check.py \
		$(if $(HOST_FIXTURES),--fixtures protocol-fixtures) $(HOST_BIN) $(HOST_DIR) docs $(HOST_ONLY)

# The results table of docs/strength.md, one `cellmate match` per row (hours in all: run on an
# idle machine, one row per core). `make strength ROWS="depth1-immune random-chess"` runs some;
# GAMES=N overrides the number of games (a quick check). OPENINGS_START=N starts the rows
# that read an openings file (sf-N, base-V) at its N-th position, for a long row split into runs
# (GAMES=100 OPENINGS_START=51 after a first 100 games). A row's PGN file gathers its runs
# (--pgn appends): `cellmate score $(STRENGTH_DIR)/ROW.pgn --engine cellmate` scores them all.
# A copy of the binary is used so that a rebuild does not swap it mid-run.
STRENGTH_DIR ?= /tmp/cellmate-strength
STRENGTH_BIN ?= $(BIN)
STRENGTH_VARIANTS := chess recursion immune microorganism
ROWS ?= fairymax sjaakii $(addprefix depth1-,$(STRENGTH_VARIANTS)) $(addprefix random-,$(STRENGTH_VARIANTS))
SB = $(STRENGTH_DIR)/cellmate
# Issue 25's rows: sf-N (chess v Stockfish at UCI_Elo N, e.g. sf-2300 sf-2500 sf-2700 sf-2850;
# cellmate with Contempt 0 there: against a stronger engine a draw is not to be refused)
# and base-V (variant V v the baseline build BASE_BIN), 400 games at 10+0.1 from the balanced
# openings of tests/data/openings/ (cellmate openings, scripts/chess_openings.py), paired colours.
STOCKFISH ?= /usr/games/stockfish
BASE_BIN ?= $(STRENGTH_DIR)/baseline
# The baseline of issue 25, item 2: commit b8021db (Bench: 4736074) built aside in a git
# worktree of its own (`quick` profile, its own target directory), copied to BASE_BIN.
BASE_COMMIT ?= b8021db
BASE_DIR ?= $(STRENGTH_DIR)/baseline-src

baseline:
	mkdir -p $(STRENGTH_DIR)
	test -d $(BASE_DIR) || git worktree add --detach $(BASE_DIR) $(BASE_COMMIT)
	cd $(BASE_DIR) && CARGO_TARGET_DIR=$(abspath $(BASE_DIR))/target $(CARGO) build --profile quick
	cp $(BASE_DIR)/target/quick/cellmate $(BASE_BIN)
	$(BASE_BIN) bench 2>&1 | grep Nodes
OPENINGS_DIR ?= tests/data/openings
OPENINGS_START ?= 1

strength: $(if $(filter $(BIN),$(STRENGTH_BIN)),build)
	mkdir -p $(STRENGTH_DIR) && cp $(STRENGTH_BIN) $(SB)
	@n=$(GAMES); for row in $(ROWS); do \
	  me=; \
	  case $$row in \
	    fairymax|sjaakii) opp="cmd=/usr/games/$$row,proto=xboard,name=$$row"; v=chess; lim="--games $${n:-200} --tc 10+0.1 --random-plies 6 --seed 7";; \
	    depth1-*) v=$${row#depth1-}; opp="cmd=$(SB),name=depth1,depth=1"; lim="--games $${n:-100} --tc 10+0.1 --random-plies 6 --seed 11";; \
	    random-*) v=$${row#random-}; opp="builtin=random"; lim="--games $${n:-100} --st 1 --seed 13";; \
	    sf-*) v=chess; me=,option.Contempt=0; opp="cmd=$(STOCKFISH),proto=uci,name=sf$${row#sf-},option.Threads=1,option.Hash=16,option.UCI_LimitStrength=true,option.UCI_Elo=$${row#sf-}"; \
	      lim="--games $${n:-400} --tc 10+0.1 --openings $(OPENINGS_DIR)/chess.epd --openings-start $(OPENINGS_START)";; \
	    base-*) v=$${row#base-}; opp="cmd=$(BASE_BIN),name=base,option.Hash=16"; \
	      lim="--games $${n:-400} --tc 10+0.1 $$(if [ -f $(OPENINGS_DIR)/$$v.epd ]; then echo --openings $(OPENINGS_DIR)/$$v.epd --openings-start $(OPENINGS_START); else echo --random-plies 8 --seed 17; fi)";; \
	    *) echo "unknown row $$row"; exit 2;; \
	  esac; \
	  echo "== $$row"; \
	  $(SB) match --engine cmd=$(SB),name=cellmate,option.Hash=16$$me --engine $$opp --variant $$v $$lim \
	    --pgn $(STRENGTH_DIR)/$$row.pgn --quiet | tee $(STRENGTH_DIR)/$$row.txt || exit 1; \
	done

# Issue 25's test of one change (docs/strength.md, "Search and evaluation changes"): NEW and
# OLD are builds of the change and of the commit before it, copied aside; an SPRT (elo0=0,
# elo1=10) at SPRT_NODES a move (a fixed limit: the machine's load does not change the games)
# from the balanced openings with SPRT_PLIES random plies after each, seeded by SEED (a fresh
# one for each run, so that no run replays another's games). The PGN gathers what the runner
# stopped; `cellmate score PGN --engine new --sprt elo0=0,elo1=10 --distinct` scores it.
# SPRT_TC=5+0.05 plays at that clock instead (the change with its cost in speed);
# SPRT_ADJUDICATE="--draw ... --resign ..." ends decided games by the engines' scores.
# Both engines play at Contempt 0 (a draw scores as a draw, as in the ladder's rows; the
# default of 50 is for play against people and weaker programs).
SPRT_VARIANT ?= chess
SPRT_NODES ?= 25000
SPRT_GAMES ?= 4000
SPRT_PLIES ?= 2
SPRT_CONCURRENCY ?= 2
SPRT_PGN ?= $(STRENGTH_DIR)/sprt-$(SEED).pgn
SPRT_TC ?=
SPRT_ADJUDICATE ?=
SPRT_LIMIT = $(if $(SPRT_TC),--tc $(SPRT_TC),--nodes $(SPRT_NODES))

sprt:
	@test -n "$(NEW)" -a -n "$(OLD)" -a -n "$(SEED)" || { echo "usage: make sprt NEW=BIN OLD=BIN SEED=N [SPRT_VARIANT=chess SPRT_NODES=25000 ...]"; exit 2; }
	mkdir -p $(STRENGTH_DIR)
	$(NEW) match --engine cmd=$(abspath $(NEW)),name=new,option.Contempt=0 \
	  --engine cmd=$(abspath $(OLD)),name=main,option.Contempt=0 \
	  --variant $(SPRT_VARIANT) --games $(SPRT_GAMES) $(SPRT_LIMIT) $(SPRT_ADJUDICATE) \
	  --openings $(OPENINGS_DIR)/$(SPRT_VARIANT).epd --random-plies $(SPRT_PLIES) --seed $(SEED) \
	  --concurrency $(SPRT_CONCURRENCY) --sprt elo0=0,elo1=10 --quiet --pgn $(SPRT_PGN)

# The chess network (docs/strength.md, "The chess network"): self-play positions, then training.
# Test the network by games with `cellmate --eval-file $(NNUE_DIR)/chess.nnue` (an engine
# spec's `arg=--eval-file,arg=FILE`) against the built-in one or, with `--no-network`, none.
NNUE_DIR ?= /tmp/cellmate-nnue
NNUE_GAMES ?= 100000
NNUE_NODES ?= 1500
NNUE_SEED ?= 1
NNUE_THREADS ?= 2
NNUE_EPOCHS ?= 20
nnue: build
	mkdir -p $(NNUE_DIR)
	$(BIN) datagen --openings $(OPENINGS_DIR)/chess.epd --out $(NNUE_DIR)/data-$(NNUE_SEED).txt \
	  --games $(NNUE_GAMES) --nodes $(NNUE_NODES) --random-min 4 --random-max 10 \
	  --threads $(NNUE_THREADS) --seed $(NNUE_SEED)
	$(BIN) nnue-train $(NNUE_DIR)/data-*.txt --out $(NNUE_DIR)/chess.nnue --epochs $(NNUE_EPOCHS) \
	  --batch 16384 --rate 0.001 --lambda 1.0 --drop 0.3 --drop-every 6 --threads $(NNUE_THREADS) --mirror
