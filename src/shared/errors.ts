/**
 * Plain language for every error a person can meet (spec section 7 and the app's own).
 * The `error` name and the server's `message` are kept for logs; people see these.
 */
export const ERROR_MESSAGES: Record<string, string> = {
  AlreadyMember: 'They are already a member of this group.',
  InviteRequired: 'This group only admits people it has invited.',
  InviteNotFound: 'That invite no longer exists; it may have been used or revoked already.',
  RequestNotFound: 'That join request is no longer waiting: someone already decided it, or it was withdrawn.',
  NotAMember: 'They are not a member of this group (any more).',
  NotAssignable: 'Your role does not let you give, take away or remove that role.',
  LastConfigurer: 'Someone else must be able to run the group first: you are the only one who can configure it.',
  Forbidden: 'Your role in this group does not allow that.',
  NotHosted: 'This group has moved to another host.',
  SpaceNotFound: 'That space does not exist any more.',
  WellKnownSpace: 'The group’s built-in spaces cannot be changed or deleted.',
  SubjectNotFound: 'That report is no longer in the moderation queue.',
  DpopRequired: 'The group host asked for proof of key possession that Convene did not send. Try again.',
  InvalidDpop: 'The group host did not accept Convene’s key proof. Try again.',
  InvalidRequest: 'The group host could not accept that request.',
  RecordNotFound: 'That item does not exist any more.',
  ScopeMissingError: 'Your sign-in does not yet allow this. Sign in again to grant it.',
  AuthRequired: 'The group host did not accept your sign-in. Sign in again.',
  SpacesUnsupported: 'Your account’s server does not support group spaces yet, so it cannot store this for you.',
  HostUnreachable: 'The group host cannot be reached right now. Your change is kept and will be sent when it is back.',
  HostNotAnswering: 'The group host is not answering. Your change is kept and will be sent when it answers.',
  ServerUnreachable: 'Your account’s server cannot be reached right now. Your change is kept and will be sent when it is back.',
  ServerNotAnswering: 'Your account’s server is not answering. Your change is kept and will be sent when it answers.',
  HostAnswerNotUnderstood: 'This group host answered something Convene does not understand. The details are in Convene’s log.',
  ServerAnswerNotUnderstood: 'Your account’s server answered something Convene does not understand. The details are in Convene’s log.',
}

export function plainMessage(error: string, fallback?: string): string {
  return ERROR_MESSAGES[error] ?? fallback ?? 'Something went wrong.'
}
