// esbuild bundles stylesheets imported from TypeScript into app.css; they export nothing. Imported
// `with { type: 'text' }` (screenRoot.ts), a sheet's default export is its text.
declare module '*.css';
