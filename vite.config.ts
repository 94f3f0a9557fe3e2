import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: { target: 'es2022', sourcemap: false },
  server: {
    proxy: Object.fromEntries(
      ['/auth', '/rest', '/storage', '/functions', '/sync', '/health', '/_outbox', '/app-config.json'].map(
        (p) => [p, 'http://localhost:3000'],
      ),
    ),
  },
});
