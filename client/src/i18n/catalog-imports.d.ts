// A part of a catalog (src/i18n/catalog-parts.ts), made by the precompiled-messages plugin of vite.config.ts.
declare module '*.json?catalog=first' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?catalog=landing' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?catalog=signIn' {
  const messages: Record<string, string>;
  export default messages;
}
declare module '*.json?catalog=rest' {
  const messages: Record<string, string>;
  export default messages;
}
