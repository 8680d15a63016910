// A part of a catalog (`en.json?first&catalog`: src/i18n/catalog-parts.ts), made by the precompiled-messages plugin of vite.config.ts.
declare module '*&catalog' {
  const messages: Record<string, string>;
  export default messages;
}
