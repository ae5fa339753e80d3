import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import type { Plugin } from 'vite'
import { aliases } from './aliases.config'

/**
 * Marks the renderer's entry script for eager compilation (V8's explicit compile hints,
 * Chromium 136+): its functions are compiled while the script loads, off the main
 * thread, and land in the code cache the browser keeps for the (immutable) asset. The
 * first screen of a section then does not stop to compile the code that draws it; in
 * `npm run bench:ui` this takes the first visit after a window opens from ~100 ms to ~80.
 */
function compileHints(): Plugin {
  return {
    name: 'convene-compile-hints',
    enforce: 'post',
    // After every other step has written the chunk: the comment must be its first line.
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.isEntry) chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`
      }
    },
  }
}

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    resolve: { alias: aliases },
    // The release OAuth client (src/main/core/accounts/client-identity.ts): set for
    // release builds, e.g. CONVENE_OAUTH_CLIENT_ID=https://convene.example/oauth-client-metadata.json,
    // where oauth/client-metadata.json is published. Unset: the development client.
    define: { 'process.env.CONVENE_OAUTH_CLIENT_ID': JSON.stringify(process.env.CONVENE_OAUTH_CLIENT_ID ?? '') },
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/electron/index.ts') } },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin({ exclude: ['zod'] })],
    resolve: { alias: aliases },
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // Sandboxed preloads cannot be ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [vue(), compileHints()],
    resolve: { alias: aliases },
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
})
