#!/usr/bin/env bash
# scripts/rtl_files.sh: the one source list per RTL top, read from bash (source this file; it
# needs $ROOT = the repository root). rtl/<top>.f is Verilator's -F format: one path per line
# relative to the list's folder, `-F other.f` includes another list, `//` comments. The same
# reader as rtl/rtl_files.cmake (CMake); scripts/synth.sh and scripts/cost_synth.sh use it.
#
#   rtl_sources LIST     the paths of LIST relative to rtl/, in compile order (may repeat)
#   unit_sources TOP     the sources of rtl/TOP.f relative to rtl/, without repeats, space-separated

rtl_sources() {
  local list="$1" dir line
  [[ -f "$list" ]] || { echo "rtl_files.sh: file list $list does not exist" >&2; return 1; }
  dir="$(dirname "$list")"
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line%%//*}"
    line="$(echo "$line" | xargs)"
    [[ -n "$line" ]] || continue
    if [[ "$line" == "-F "* ]]; then
      rtl_sources "$dir/${line#-F }" || return 1
    else
      [[ -f "$dir/$line" ]] || { echo "rtl_files.sh: $list: $line does not exist" >&2; return 1; }
      realpath -m --relative-to="$ROOT/rtl" "$dir/$line"
    fi
  done <"$list"
}

unit_sources() {
  local s
  s="$(rtl_sources "$ROOT/rtl/$1.f")" || return 1
  awk '!seen[$0]++' <<<"$s" | paste -sd' ' -
}
