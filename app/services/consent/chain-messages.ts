/**
 * The text a head's signature covers (decision 069). In a module of its own so the witness and its
 * mail read it without the chain's database code; scripts/verify-consent-certificate.mjs writes the
 * same line with Node's standard library alone.
 */
export function headMessage(seq: number, hash: string, signedAt: string) {
  return `consent-chain-head-v1\n${seq}\n${hash}\n${signedAt}`;
}
