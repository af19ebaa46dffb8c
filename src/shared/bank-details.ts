// The bank's own published facts that both the site and the server print: the address on the
// contact page is the one on every statement, and the routing number a payer needs is the one in
// every OFX export. An operator replaces these demo values (DESIGN.md rule 7: one content module).
// The site's other contact details (email, phone, hours) live in src/web/content/contact.ts.

export const bankDetails = {
  /** The bank's postal address. */
  address: '100 Demo Plaza, Suite 500, Springfield',
  /**
   * The bank's ABA routing number. The demo's passes the 3-7-1 checksum but starts with 50, a
   * prefix the Federal Reserve never assigns, so it cannot name a real bank.
   */
  routingNumber: '501234566',
} as const;
