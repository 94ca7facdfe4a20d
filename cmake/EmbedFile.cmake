# Writes OUTPUT, a C++ file defining `extern const char SYMBOL[]` and
# `extern const unsigned long SYMBOL_size` with the bytes of INPUT.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT}; do not edit.\n"
  "namespace fcrawl::embedded {\n"
  "extern const char ${SYMBOL}[] = {${bytes}0};\n"
  "extern const unsigned long ${SYMBOL}_size = ${size};\n"
  "}  // namespace fcrawl::embedded\n")
