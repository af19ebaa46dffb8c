import { Fragment } from 'react';

/**
 * An email address that wraps where a reader expects it to, not mid-word: a line may end before
 * the `@` and before each `.` (the usual rule for breaking an address; a `-` already allows a
 * break after it), and only a part still wider than its column breaks inside (`break-words`).
 * The text, the accessible name and a copy are the address unchanged (`<wbr>` adds no
 * character). In a table column the address never stretches the table past its longest part.
 *
 * Use it wherever an address is shown in a narrow place (a list's column, a card, a definition):
 * `<EmailAddress value={user.email} />`; inside a link, put it as the link's content.
 */
export function EmailAddress({ value, className = '' }: { value: string; className?: string }) {
  return <span className={`break-words ${className}`}>{withBreaks(value)}</span>;
}

/** The address with a break opportunity before `@` and `.` (none before its first character). */
function withBreaks(value: string) {
  const parts = value.split(/(?=[@.])/);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

/** A name or an address shown where a name is (a request's customer, a decider): `EmailAddress` when it is an address. */
export function NameOrEmail({ name, email }: { name: string | null | undefined; email: string | null | undefined }) {
  if (name) return <>{name}</>;
  return email ? <EmailAddress value={email} /> : null;
}
