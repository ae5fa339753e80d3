import { createRouter, createWebHashHistory } from 'vue-router'
import SignInView from './views/SignInView.vue'
import GroupsHome from './views/GroupsHome.vue'
import GroupLayout from './views/GroupLayout.vue'
import JoinRequestsView from './views/group/JoinRequestsView.vue'
import SpacesView from './views/group/SpacesView.vue'
import OutboxPanel from './components/OutboxPanel.vue'

// Hash history: the packaged app loads from file://, where path routing cannot work.
export function createAppRouter() {
  return createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', redirect: '/groups' },
      { path: '/sign-in', name: 'sign-in', component: SignInView, meta: { title: 'Sign in' } },
      { path: '/groups', name: 'groups', component: GroupsHome, meta: { title: 'Groups' } },
      { path: '/outbox', name: 'outbox', component: OutboxPanel, meta: { title: 'Pending changes' } },
      {
        path: '/g/:account/:group',
        component: GroupLayout,
        props: true,
        children: [
          { path: '', redirect: { name: 'group-requests' } },
          { path: 'requests', name: 'group-requests', component: JoinRequestsView, meta: { title: 'Join requests' } },
          { path: 'members', name: 'group-members', component: () => import('./views/group/MembersView.vue'), meta: { title: 'Members' } },
          { path: 'invites', name: 'group-invites', component: () => import('./views/group/InvitesView.vue'), meta: { title: 'Invites' } },
          { path: 'moderation', name: 'group-moderation', component: () => import('./views/group/ModerationView.vue'), meta: { title: 'Moderation' } },
          { path: 'calendar', name: 'group-calendar', component: () => import('./views/group/CalendarView.vue'), meta: { title: 'Calendar' } },
          { path: 'spaces', name: 'group-spaces', component: SpacesView, meta: { title: 'Spaces' } },
        ],
      },
    ],
  })
}
