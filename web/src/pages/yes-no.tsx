/** A boolean shown in a table or detail list. */
export function yesNo(value: boolean): string {
  return value ? 'Yes' : 'No';
}
