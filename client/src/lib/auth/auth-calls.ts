// The session's API calls, imported on first use by auth-context: a dynamic import keeps every export of its module,
// so it goes through this file to leave the generated query hooks beside these calls out of the bundle.
export { adminLogin, getCurrentUser, login, logout, resendVerification } from '../../api/generated/endpoints/auth/auth';
