import { createRouter, createWebHashHistory } from 'vue-router'
import SignInView from './views/SignInView.vue'

// Hash history: the packaged app loads from file://, where path routing cannot work.
export function createAppRouter() {
  return createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', redirect: '/sign-in' },
      { path: '/sign-in', name: 'sign-in', component: SignInView, meta: { title: 'Sign in' } },
    ],
  })
}
