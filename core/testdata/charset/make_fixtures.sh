#!/bin/sh
# Regenerates the encoded fixtures from their UTF-8 sources with glibc iconv,
# an encoder independent of the ICU decoder under test. Run from this folder.
#   <name>.utf8.txt  the expected text (UTF-8)
#   <name>.txt       the same text in the legacy encoding
set -eu
enc() { iconv -f UTF-8 -t "$2" "$1.utf8.txt" > "$1.txt"; }
enc gbk GBK                 # contains GBK-only 镕 and 喆 (not in GB2312)
enc gb2312 GB2312
enc gb18030 GB18030         # contains 4-byte sequences (𠀀, 𪚥, Ä, Ü)
enc big5 CP950              # what Taiwanese Windows tools write
enc shift_jis CP932         # ～ and ① are CP932 (Windows) mappings
enc euc-kr EUC-KR
enc cp949 CP949             # 똠 and 꿍 exist only in the CP949 extension
enc windows-1252 CP1252     # 0x80-0x9F: € “ ” ‘ ’ — … ™ Œ Š ž Ÿ
enc hkscs BIG5-HKSCS        # Cantonese characters that exist only in HKSCS
