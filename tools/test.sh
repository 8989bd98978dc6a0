#!/usr/bin/env bash
# The README's test command: install what is missing, then run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install.sh
export PATH="/opt/swift/usr/bin:$PATH"
# Every suite is XCTest; skipping the empty Swift Testing pass keeps the closing line the real count.
swift test --disable-swift-testing "$@"
