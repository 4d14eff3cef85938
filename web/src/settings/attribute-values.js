// The parsers of attribute values (text a course author writes in a tag): each returns the value or
// throws a RangeError whose message completes "name=\"text\": …". The state schema's attribute parser
// (schema.js parseAttribute) reads every setting's attribute with them; the explorer reads its own (theme).

/** @param {string} text @param {string[]} allowed @returns {string} text, when it is one of `allowed` @throws {RangeError} */
export function oneOf(text, allowed) {
  if (!allowed.includes(text)) throw new RangeError(`must be one of ${allowed.join(', ')}`);
  return text;
}

/** @param {string} text @param {number} min @param {number} max @returns {number} a whole number in [min, max] @throws {RangeError} */
export function integerIn(text, min, max) {
  const value = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || value < min || value > max)
    throw new RangeError(`must be a whole number from ${min} to ${max}`);
  return value;
}

/** @param {string} text @param {number} min @param {number} max @returns {number} a number in [min, max] @throws {RangeError} */
export function numberIn(text, min, max) {
  const value = Number(text);
  if (text.trim() === '' || !(value >= min && value <= max))
    throw new RangeError(`must be a number from ${min} to ${max}`);
  return value;
}
