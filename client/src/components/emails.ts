/** The e-mail addresses in a text, as [before, address, before, address, …, rest]: odd entries are addresses. */
export function splitEmails(text: string): string[] {
  // Ends on a letter or digit, so the full stop after an address stays with the sentence.
  return text.split(/([^\s@<>()[\],;:"']+@[^\s@<>()[\],;:"']*[\p{L}\p{N}])/u);
}

/** An address split before its @: the local part and '@domain'. */
export function atBreak(address: string): [string, string] {
  const at = address.lastIndexOf('@');
  return [address.slice(0, at), address.slice(at)];
}
