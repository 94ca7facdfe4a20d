# Every third-party dependency, found as an imported target. Debian 12 packages
# (deploy/install-deps.sh) provide all of them.
find_package(Threads REQUIRED)
find_package(absl CONFIG REQUIRED)
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)   # gRPC::grpc++, grpc++_reflection, grpc_cpp_plugin
find_package(ZLIB REQUIRED)
find_package(ICU 70 REQUIRED COMPONENTS uc i18n data)
find_package(PkgConfig REQUIRED)
pkg_check_modules(GUMBO REQUIRED IMPORTED_TARGET gumbo)
pkg_check_modules(PSL REQUIRED IMPORTED_TARGET libpsl)
pkg_check_modules(UCHARDET REQUIRED IMPORTED_TARGET uchardet)
pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
pkg_check_modules(CARES REQUIRED IMPORTED_TARGET libcares)
pkg_check_modules(LIBXML2 REQUIRED IMPORTED_TARGET libxml-2.0)
pkg_check_modules(ISAL REQUIRED IMPORTED_TARGET libisal)   # igzip: WARC gzip members
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)   # .warc.zst
pkg_check_modules(XAPIAN REQUIRED IMPORTED_TARGET xapian-core)   # search over the corpus (corpus/)
pkg_check_modules(RAPIDJSON REQUIRED IMPORTED_TARGET RapidJSON)  # JSON-LD of pages (quark/declared.h)
# libdeflate only for bench/gzip_bench (the measurement that chose igzip).
pkg_check_modules(LIBDEFLATE IMPORTED_TARGET libdeflate)
find_package(CURL REQUIRED)          # CURL::libcurl
find_package(OpenSSL REQUIRED)       # OpenSSL::Crypto (SHA-1 of WARC digests)
find_package(RocksDB CONFIG REQUIRED) # RocksDB::rocksdb
pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
# LIBLINEAR (liblinear-dev) has no pkg-config file or CMake package.
find_library(LIBLINEAR_LIBRARY linear REQUIRED)
find_path(LIBLINEAR_INCLUDE_DIR linear.h REQUIRED)
if(FCRAWL_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

# Embeds a text file into a C++ source as a string constant so binaries do not
# depend on where data files are installed.
function(fcrawl_embed_file out_var input symbol)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${symbol}.cc")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${out} -DSYMBOL=${symbol}
            -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake"
    DEPENDS "${input}" "${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake"
    COMMENT "Embedding ${input}")
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
