import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web app lives in src/web and is built to dist/web, which the server serves.
export default defineConfig({
  root: 'src/web',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
  },
  server: {
    port: 5173,
    // Only the API prefix: '/api' alone would also catch the app's own src/web/api/*.ts modules.
    proxy: { '/api/v1': 'http://localhost:3000', '/files': 'http://localhost:3000' },
  },
});
