// esbuild bundles stylesheets imported from TypeScript into app.css; they export nothing.
declare module '*.css';
