import { Fragment } from 'react';
import { atBreak, splitEmails } from './emails';
import classes from './wrap-emails.module.css';

/**
 * A text whose e-mail addresses wrap at the @, not mid-word: each side of an address stays on one line unless it alone
 * is wider than the line. The text reads and copies unchanged.
 */
export function WrapEmails({ text }: { text: string }) {
  return splitEmails(text).map((part, index) => {
    if (index % 2 === 0) return <Fragment key={index}>{part}</Fragment>;
    const [local, domain] = atBreak(part);
    return (
      <Fragment key={index}>
        <span className={classes.part}>{local}</span>
        <wbr />
        <span className={classes.part}>{domain}</span>
      </Fragment>
    );
  });
}
