// Where the table finds a term's word in a sentence (views/terms.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { findTerm } from "../../static/js/views/terms.js";

const deal = { forms: ["deal", "deals"], marks: [] };

test("a term's word is found whole, in any case", () => {
  assert.deepEqual(findTerm("Deal 3 is over: nino +100", deal), { index: 0, length: 4 });
  assert.deepEqual(findTerm("Two deals", deal), { index: 4, length: 5 });
  // Inside another word it is not the term.
  assert.equal(findTerm("Dealer: nino", deal), null);
  assert.equal(findTerm("", deal), null);
});

test("words of other scripts are found whole too", () => {
  const pulka = { forms: ["ფულკა", "ფულკის"], marks: [] };
  assert.deepEqual(findTerm("ფულკა 2 დასრულდა.", pulka), { index: 0, length: 5 });
  assert.equal(findTerm("ფულკაში", pulka), null);
  const trump = { forms: ["козырь"], marks: [] };
  assert.deepEqual(findTerm("Время вышло: Козырь назван за вас.", trump), { index: 13, length: 6 });
});

test("a sign is found with the number written after it", () => {
  const deduction = { forms: ["deduction"], marks: ["−"] };
  assert.deepEqual(findTerm("★ +120 −50", deduction), { index: 7, length: 3 });
  const premium = { forms: ["premium"], marks: ["★"] };
  assert.deepEqual(findTerm("★ +120 −50", premium), { index: 0, length: 1 });
});
