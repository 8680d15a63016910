import type en from './en.json';

// Every message id used with react-intl must exist in the English catalog (checked by the compiler).
declare global {
  namespace FormatjsIntl {
    interface Message {
      ids: keyof typeof en;
    }
  }
}
