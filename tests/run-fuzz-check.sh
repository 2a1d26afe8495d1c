#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run-fuzz-check.sh - the short libFuzzer run of make check: the nfnl batch
# decoder (tests/fuzz/fuzz_nfnl.c) for FUZZ_SECONDS (default 30) seconds.
# Skipped (77) without clang and its fuzzer runtime.
top_srcdir=${top_srcdir:-$(dirname "$0")/..}
exec sh "$top_srcdir/tests/fuzz/run-fuzz.sh" "${FUZZ_SECONDS:-30}"
