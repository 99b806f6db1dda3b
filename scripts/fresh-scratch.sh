# Sourced by scripts/examples.sh and scripts/fuzz.sh, whose packages depend on this checkout by
# path. SwiftPM's incremental build of such a dependency can keep a stale list of its sources (a
# new file is "not in scope") or objects compiled against an older layout of its types (a crash
# in "outlined destroy of DatasetRunner.Summary"). fresh_scratch DIR empties DIR whenever the
# checkout differs from the one it was last built from (commit, status and diff).
fresh_scratch() {
    local dir="$1" stamp
    stamp="$( (git rev-parse HEAD 2>/dev/null; git status --porcelain 2>/dev/null; git diff 2>/dev/null) | cksum)"
    if [ -d "$dir" ] && [ "$(cat "$dir/.parallax-stamp" 2>/dev/null)" != "$stamp" ]; then rm -rf "$dir"; fi
    mkdir -p "$dir"
    echo "$stamp" > "$dir/.parallax-stamp"
}
