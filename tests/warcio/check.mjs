// Reads WARC files with Webrecorder's warcio (npm) and checks every
// record's WARC-Block-Digest and every response's WARC-Payload-Digest.
//   node check.mjs FILE.warc.gz...
// Prints one JSON object: {"records": N, "responses": N, "errors": [...]}.
import fs from "node:fs";
import crypto from "node:crypto";
import { WARCParser } from "warcio";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32(bytes) {
  let out = "", bits = 0, value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}
const sha1 = (bytes) =>
  "sha1:" + base32(crypto.createHash("sha1").update(bytes).digest());

function indexOfCrlfCrlf(bytes) {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 &&
        bytes[i + 3] === 10) return i;
  }
  return -1;
}

const result = { records: 0, responses: 0, errors: [] };
for (const file of process.argv.slice(2)) {
  const parser = new WARCParser(fs.createReadStream(file), { parseHttp: false });
  for await (const record of parser) {
    result.records++;
    const where = `${file}@${parser.offset}`;
    const block = await record.readFully();
    const blockDigest = record.warcHeader("WARC-Block-Digest");
    if (blockDigest !== sha1(block)) {
      result.errors.push(`${where}: block digest ${blockDigest} != ${sha1(block)}`);
    }
    if (record.warcType === "response") {
      result.responses++;
      const head = indexOfCrlfCrlf(block);
      if (head < 0) {
        result.errors.push(`${where}: no HTTP head`);
        continue;
      }
      const payload = block.subarray(head + 4);
      const want = record.warcHeader("WARC-Payload-Digest");
      if (want !== sha1(payload)) {
        result.errors.push(`${where}: payload digest ${want} != ${sha1(payload)}`);
      }
    }
  }
}
console.log(JSON.stringify(result));
