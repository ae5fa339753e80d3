import { createRouter, createWebHashHistory } from 'vue-router'
import SignInView from './views/SignInView.vue'
import ActAsGroupView from './views/ActAsGroupView.vue'
import GroupsHome from './views/GroupsHome.vue'
import GroupLayout from './views/GroupLayout.vue'
import JoinRequestsView from './views/group/JoinRequestsView.vue'
import MembersView from './views/group/MembersView.vue'
import SpacesView from './views/group/SpacesView.vue'
import OutboxPanel from './components/OutboxPanel.vue'

/**
 * Sections loaded on first use keep the window's start small; `prefetchViews` loads
 * them while the window is idle after start, so the first visit to one does not wait
 * for its code. The two long lists (join requests, where an organizer's group opens,
 * and members) are in the main bundle: their first screen must not wait for a chunk.
 */
const lazyViews = {
  invites: () => import('./views/group/InvitesView.vue'),
  moderation: () => import('./views/group/ModerationView.vue'),
  calendar: () => import('./views/group/CalendarView.vue'),
  settings: () => import('./views/group/SettingsView.vue'),
  today: () => import('./views/TodayView.vue'),
  door: () => import('./views/group/DoorModeView.vue'),
}

export function prefetchViews() {
  const load = () => void Promise.all(Object.values(lazyViews).map((view) => view())).catch(() => {})
  if ('requestIdleCallback' in window) requestIdleCallback(load, { timeout: 2_000 })
  else setTimeout(load, 500)
}

// Hash history: the packaged app loads from file://, where path routing cannot work.
export function createAppRouter() {
  return createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', redirect: '/groups' },
      { path: '/sign-in', name: 'sign-in', component: SignInView, meta: { title: 'Sign in' } },
      { path: '/act-as-group', name: 'act-as-group', component: ActAsGroupView, meta: { title: 'Act as a group' } },
      { path: '/groups', name: 'groups', component: GroupsHome, meta: { title: 'Groups' } },
      { path: '/outbox', name: 'outbox', component: OutboxPanel, meta: { title: 'Pending changes' } },
      { path: '/today', name: 'today', component: lazyViews.today, meta: { title: 'Today' } },
      {
        path: '/g/:account/:group',
        component: GroupLayout,
        props: true,
        children: [
          // Opens on the section the person's work is in (GroupLayout decides, once it
          // knows their roles in the group), or on the one they chose there last.
          { path: '', name: 'group', component: { render: () => null } },
          { path: 'requests', name: 'group-requests', component: JoinRequestsView, meta: { title: 'Join requests' } },
          { path: 'members', name: 'group-members', component: MembersView, meta: { title: 'Members' } },
          { path: 'invites', name: 'group-invites', component: lazyViews.invites, meta: { title: 'Invites' } },
          { path: 'moderation', name: 'group-moderation', component: lazyViews.moderation, meta: { title: 'Moderation' } },
          { path: 'calendar', name: 'group-calendar', component: lazyViews.calendar, meta: { title: 'Calendar' } },
          { path: 'spaces', name: 'group-spaces', component: SpacesView, meta: { title: 'Advanced' } },
          { path: 'settings', name: 'group-settings', component: lazyViews.settings, meta: { title: 'Settings' } },
          // Door mode for one event (issue 27): check-ins at the door, offline too.
          { path: 'calendar/:rkey/door', name: 'group-door', component: lazyViews.door, meta: { title: 'Door mode' } },
        ],
      },
    ],
  })
}
