#!/usr/bin/env bash
# The benchmark's first entry point, kept for the tools that call it (the bigger machine's bundle): ./slots bench
# without its package check. The benchmark itself is the bench verb of the load-test program (loadtest/Slots.LoadTest/Bench).
set -euo pipefail
cd "$(dirname "$0")/.."
dotnet build api/Slots.Api -c Release -warnaserror --nologo -v quiet
dotnet build loadtest/Slots.LoadTest -c Release -warnaserror --nologo -v quiet
exec dotnet artifacts/bin/Slots.LoadTest/release/Slots.LoadTest.dll bench "$@"
