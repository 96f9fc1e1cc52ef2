/* Fair deals: check the commitments a game published against its record.
 *
 * When a deal begins every seat receives sha256(preimage); when the game is
 * over the preimages are published. A deal is verified when its preimage
 * hashes to the commitment received during play, and the cards in the
 * preimage are the cards of the game record.
 */
(function (root) {
  "use strict";

  // SHA-256 (FIPS 180-4) in plain JavaScript, for browsers without
  // crypto.subtle (it exists only in secure contexts: https or localhost).
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);

  function rotr(x, n) {
    return (x >>> n) | (x << (32 - n));
  }

  function utf8(text) {
    if (typeof TextEncoder !== "undefined") return new TextEncoder().encode(text);
    const bytes = unescape(encodeURIComponent(text));
    const out = new Uint8Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
    return out;
  }

  function toHex(bytes) {
    let out = "";
    for (let i = 0; i < bytes.length; i++) {
      out += bytes[i].toString(16).padStart(2, "0");
    }
    return out;
  }

  function sha256HexSync(text) {
    const data = utf8(text);
    const length = data.length;
    const padded = (((length + 9 + 63) / 64) | 0) * 64;
    const buffer = new Uint8Array(padded);
    buffer.set(data);
    buffer[length] = 0x80;
    const view = new DataView(buffer.buffer);
    const bits = length * 8;
    view.setUint32(padded - 8, Math.floor(bits / 0x100000000));
    view.setUint32(padded - 4, bits >>> 0);
    const h = new Uint32Array([
      0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
      0x1f83d9ab, 0x5be0cd19,
    ]);
    const w = new Uint32Array(64);
    for (let offset = 0; offset < padded; offset += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
      for (let i = 16; i < 64; i++) {
        const a = w[i - 15];
        const b = w[i - 2];
        const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
        const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
      }
      let [a, b, c, d, e, f, g, k] = h;
      for (let i = 0; i < 64; i++) {
        const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        const choose = (e & f) ^ (~e & g);
        const t1 = (k + s1 + choose + K[i] + w[i]) | 0;
        const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        const majority = (a & b) ^ (a & c) ^ (b & c);
        const t2 = (s0 + majority) | 0;
        k = g;
        g = f;
        f = e;
        e = (d + t1) | 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) | 0;
      }
      h[0] += a;
      h[1] += b;
      h[2] += c;
      h[3] += d;
      h[4] += e;
      h[5] += f;
      h[6] += g;
      h[7] += k;
    }
    let out = "";
    for (let i = 0; i < 8; i++) out += h[i].toString(16).padStart(8, "0");
    return out;
  }

  function subtle() {
    const c = root.crypto;
    const secure = root.isSecureContext !== false;
    return secure && c && c.subtle && c.subtle.digest ? c.subtle : null;
  }

  // The hex SHA-256 of a text's UTF-8 bytes.
  async function sha256Hex(text) {
    const s = subtle();
    if (s) {
      try {
        const digest = await s.digest("SHA-256", utf8(text));
        return toHex(new Uint8Array(digest));
      } catch (error) {
        // Fall through to the plain implementation.
      }
    }
    return sha256HexSync(text);
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  /* Check every revealed deal. `commitments` are the hashes received during
   * play (index = deal); `record` is the game record (RECORD.md).
   * Resolves to {ok, count, failures: [{deal, reason}]}, where reason is
   * "missing", "hash", "preimage" or "cards". */
  async function verifyDeals({ reveal, commitments, record }) {
    const failures = [];
    const deals = (record && record.deals) || [];
    const items = reveal || [];
    for (let i = 0; i < Math.max(items.length, deals.length); i++) {
      const item = items[i];
      const expected = commitments[i];
      if (!item || !expected || item.deal !== i) {
        failures.push({ deal: i, reason: "missing" });
        continue;
      }
      const hash = await sha256Hex(item.preimage);
      if (hash !== expected) {
        failures.push({ deal: i, reason: "hash" });
        continue;
      }
      let data;
      try {
        data = JSON.parse(item.preimage);
      } catch (error) {
        failures.push({ deal: i, reason: "preimage" });
        continue;
      }
      const dealt = deals[i];
      const matches =
        dealt &&
        data.deal === i &&
        same(data.hands, dealt.hands) &&
        (data.turned ?? null) === (dealt.turned ?? null) &&
        same(data.columns || [], dealt.columns || []);
      if (!matches) failures.push({ deal: i, reason: "cards" });
    }
    return { ok: failures.length === 0, count: items.length, failures };
  }

  /* The preimage of deal `index` rebuilt from its entry in a game record and
   * its salt: the keys in sorted order and no spaces, as games/fairness.py
   * writes it (a Japanese deal has no `turned`, a four-player deal no
   * `columns`). */
  function recordPreimage(index, deal, salt) {
    return JSON.stringify({
      columns: deal.columns || [],
      deal: index,
      hands: deal.hands,
      salt: salt,
      turned: deal.turned ?? null,
    });
  }

  /* What a downloaded game record proves of itself: {reveal, commitments}
   * for verifyDeals, from the commitment and salt of each deal it carries
   * under "fairness". */
  function revealFromRecord(record) {
    const proofs = (record && record.fairness) || [];
    const deals = (record && record.deals) || [];
    const reveal = [];
    const commitments = [];
    for (const proof of proofs) {
      const deal = deals[proof.deal];
      if (!deal || typeof proof.salt !== "string") continue;
      reveal[proof.deal] = {
        deal: proof.deal,
        commitment: proof.commitment,
        preimage: recordPreimage(proof.deal, deal, proof.salt),
      };
      commitments[proof.deal] = proof.commitment;
    }
    return { reveal, commitments };
  }

  const api = { sha256Hex, sha256HexSync, verifyDeals, recordPreimage, revealFromRecord };
  root.PulkaFairness = api;
  if (typeof module !== "undefined" && module.exports) module.exports = api;
})(typeof window !== "undefined" ? window : globalThis);
