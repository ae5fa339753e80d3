import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { createAppRouter, prefetchViews } from './router'
import { resolveApi } from './ipc/bridge'
import { API_KEY } from './ipc/use-api'
import { keepFocusThroughBusy } from './keep-focus'
import './styles/base.css'

// Resolve the API before the router reads the URL: the loopback shell's launch
// secret travels in the fragment and is removed from it here.
const api = resolveApi()

createApp(App).provide(API_KEY, api).use(createPinia()).use(createAppRouter()).mount('#app')
prefetchViews()
keepFocusThroughBusy()
