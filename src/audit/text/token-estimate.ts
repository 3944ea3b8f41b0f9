/**
 * An estimate of what a text costs in model tokens, without a tokenizer (each
 * model family has its own, and shipping one would weigh megabytes). Tokenizers
 * cut text into word pieces, numbers into short digit groups, and give most
 * punctuation and layout its own token; the estimate counts those pieces:
 *
 * - a run of letters: one token per 6 letters, rounded up (`Traceback` 2, `File` 1);
 * - a run of digits: one token per 3 digits, rounded up (`133` 1, `2026` 2);
 * - every other visible character (punctuation, quotes, slashes): 1;
 * - every line break: 1, and every run of two or more spaces or tabs (indentation): 1;
 * - a single space between words: 0 (tokenizers fold it into the next word).
 *
 * Code-like text (paths, identifiers, punctuation, indentation) is dense, and a
 * plain characters ÷ 4 rule, made for prose, undercounts it. On seed 002's
 * Python traceback block (812 characters), which the article counts as 280 tokens,
 * this gives 275; characters ÷ 4 gives 203.
 */
const PIECE = /[A-Za-z]+|\d+|\n|[ \t]{2,}|[^\s\dA-Za-z]/g;

export function estimateTokens(text: string): number {
  let tokens = 0;
  PIECE.lastIndex = 0;
  for (let m = PIECE.exec(text); m !== null; m = PIECE.exec(text)) {
    const piece = m[0];
    const c = piece.charCodeAt(0);
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) tokens += Math.ceil(piece.length / 6);
    else if (c >= 0x30 && c <= 0x39) tokens += Math.ceil(piece.length / 3);
    else tokens += 1;
  }
  return tokens;
}
