/// <reference types="vite/client" />
import type { ConveneApi } from '../../shared/ipc/api'

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the loopback shell. */
    convene?: ConveneApi
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}
