#!/usr/bin/env bash
# Builds the API reference from the public headers with Doxygen (docs/Doxyfile) and fails on any
# Doxygen warning: an undocumented public class or function, or a broken doc comment.
#   ./scripts/api_docs.sh            # HTML in build/api-docs/html
#   ./scripts/api_docs.sh --check    # warnings only (seconds), as CI runs it
set -euo pipefail
cd "$(dirname "$0")/.."
command -v doxygen > /dev/null || ./scripts/install_deps.sh doxygen
export KERAS_API_DOCS_OUT="${KERAS_API_DOCS_OUT:-$PWD/build/api-docs}"
# --check writes XML instead of HTML: Doxygen reports broken markup only while it writes an
# output, and XML is the quickest one.
export KERAS_API_DOCS_HTML=YES KERAS_API_DOCS_XML=NO
[ "${1:-}" = "--check" ] && KERAS_API_DOCS_HTML=NO KERAS_API_DOCS_XML=YES
mkdir -p "$KERAS_API_DOCS_OUT"
doxygen docs/Doxyfile
log="$KERAS_API_DOCS_OUT/warnings.log"
if [ -s "$log" ]; then
  # Doxygen repeats an inherited member's warning once per derived class.
  sort -u "$log" | sed "s#^$PWD/##" > "$log.sorted"
  echo "api_docs: $(wc -l < "$log.sorted") Doxygen warnings (fix every one):" >&2
  head -50 "$log.sorted" >&2
  exit 1
fi
if [ "$KERAS_API_DOCS_HTML" = YES ]; then
  echo "api_docs: no warnings; $KERAS_API_DOCS_OUT/html/index.html"
else
  echo "api_docs: no warnings"
fi
