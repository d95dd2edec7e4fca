/**
 * JSONata's built-in functions (jsonata 2.x, as the server binds them), each with a one-line signature and what it
 * does, for the template editor's completion. `?` marks an optional argument.
 */
export interface JsonataFunction {
  name: string;
  signature: string;
  info: string;
}

const table: [string, string, string][] = [
  // Strings
  ['string', '(value, prettify?) → string', 'The value as a string (JSON for objects and arrays).'],
  ['length', '(str) → number', 'The number of characters in the string.'],
  [
    'substring',
    '(str, start, length?) → string',
    'Part of the string from start (0-based; negative counts from the end).',
  ],
  ['substringBefore', '(str, chars) → string', 'The part of the string before the first occurrence of chars.'],
  ['substringAfter', '(str, chars) → string', 'The part of the string after the first occurrence of chars.'],
  ['uppercase', '(str) → string', 'The string in upper case.'],
  ['lowercase', '(str) → string', 'The string in lower case.'],
  ['trim', '(str) → string', 'The string with outer spaces removed and inner runs of spaces made single.'],
  ['pad', '(str, width, char?) → string', 'The string padded to width (negative width pads on the left).'],
  ['contains', '(str, pattern) → boolean', 'Whether the string contains the text or matches the regular expression.'],
  ['split', '(str, separator, limit?) → string[]', 'The string split at the separator (text or regular expression).'],
  ['join', '(array, separator?) → string', 'The array of strings joined, with the separator between them.'],
  ['match', '(str, pattern, limit?) → object[]', 'The regular expression’s matches in the string, with their groups.'],
  ['replace', '(str, pattern, replacement, limit?) → string', 'The string with the pattern’s matches replaced.'],
  ['base64encode', '(str) → string', 'The string in base 64.'],
  ['base64decode', '(str) → string', 'The base 64 string decoded.'],
  ['encodeUrlComponent', '(str) → string', 'The string encoded as a URL component.'],
  ['encodeUrl', '(str) → string', 'The string encoded as a whole URL.'],
  ['decodeUrlComponent', '(str) → string', 'The URL component decoded.'],
  ['decodeUrl', '(str) → string', 'The URL decoded.'],
  ['eval', '(expr, context?) → any', 'Evaluates a JSONata expression given as a string.'],
  // Numbers
  ['number', '(value) → number', 'The value as a number (a numeric string, a boolean).'],
  ['abs', '(number) → number', 'The absolute value.'],
  ['floor', '(number) → number', 'Rounded down.'],
  ['ceil', '(number) → number', 'Rounded up.'],
  ['round', '(number, precision?) → number', 'Rounded to the given decimal places (half to even).'],
  ['power', '(base, exponent) → number', 'Base raised to the exponent.'],
  ['sqrt', '(number) → number', 'The square root.'],
  ['random', '() → number', 'A random number from 0 up to 1.'],
  [
    'formatNumber',
    '(number, picture, options?) → string',
    'The number formatted by a decimal picture, e.g. "#,##0.00".',
  ],
  ['formatBase', '(number, radix?) → string', 'The number written in another base.'],
  ['formatInteger', '(number, picture) → string', 'The integer formatted by a picture, e.g. "w" for words.'],
  ['parseInteger', '(str, picture) → number', 'The integer read from a string by a picture.'],
  // Aggregates
  ['sum', '(array) → number', 'The sum of the numbers.'],
  ['max', '(array) → number', 'The largest of the numbers.'],
  ['min', '(array) → number', 'The smallest of the numbers.'],
  ['average', '(array) → number', 'The mean of the numbers.'],
  ['count', '(array) → number', 'The number of items (0 for nothing, 1 for a single value).'],
  // Booleans
  ['boolean', '(value) → boolean', 'The value as a boolean, by JSONata’s rules.'],
  ['not', '(value) → boolean', 'The opposite of the value as a boolean.'],
  ['exists', '(value) → boolean', 'Whether the value is there (a path that matched something).'],
  // Arrays
  ['append', '(array1, array2) → array', 'The two joined into one array.'],
  ['sort', '(array, function?) → array', 'The array sorted; the function($a, $b) says whether $a goes after $b.'],
  ['reverse', '(array) → array', 'The array in reverse order.'],
  ['shuffle', '(array) → array', 'The array in random order.'],
  ['distinct', '(array) → array', 'The array without repeated values.'],
  ['zip', '(array1, array2, ...) → array[]', 'The arrays’ items paired by position.'],
  ['map', '(array, function) → array', 'Each item passed through the function($value, $index, $array).'],
  ['filter', '(array, function) → array', 'The items for which the function($value, $index, $array) is true.'],
  ['single', '(array, function?) → any', 'The one item that satisfies the function; an error unless exactly one does.'],
  ['reduce', '(array, function, init?) → any', 'The items folded into one value by the function($acc, $value).'],
  // Objects
  ['keys', '(object) → string[]', 'The object’s keys.'],
  ['lookup', '(object, key) → any', 'The value at the key.'],
  ['spread', '(object) → object[]', 'The object split into one object per key.'],
  ['merge', '(array) → object', 'The objects merged into one (later keys win).'],
  ['sift', '(object, function) → object', 'The keys for which the function($value, $key) is true.'],
  ['each', '(object, function) → array', 'The function($value, $key) applied to each key.'],
  [
    'type',
    '(value) → string',
    'The value’s type: "string", "number", "boolean", "array", "object", "function" or "null".',
  ],
  ['error', '(message?) → never', 'Stops with the message as an error.'],
  ['assert', '(condition, message?) → never', 'Stops with the message unless the condition is true.'],
  ['clone', '(value) → any', 'A deep copy of the object or array.'],
  // Dates and times
  ['now', '(picture?, timezone?) → string', 'The evaluation’s time as an ISO 8601 timestamp (or by the picture).'],
  ['millis', '() → number', 'The evaluation’s time in milliseconds since 1970.'],
  ['fromMillis', '(number, picture?, timezone?) → string', 'Milliseconds since 1970 as a timestamp string.'],
  ['toMillis', '(timestamp, picture?) → number', 'A timestamp string as milliseconds since 1970.'],
];

export const JSONATA_FUNCTIONS: JsonataFunction[] = table.map(([name, signature, info]) => ({
  name: `$${name}`,
  signature,
  info,
}));
