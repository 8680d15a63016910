/** Every route of the client, in one place. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  verifyEmail: '/verify-email',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  profile: '/dashboard/profile',
  confirmEmail: '/confirm-email',
  unauthorized: '/unauthorized',
  adminLogin: '/secret-admin',
  admin: {
    dashboard: '/secret-admin/dashboard',
    users: '/secret-admin/users',
    versions: '/secret-admin/versions',
    licenses: '/secret-admin/licenses',
    files: '/secret-admin/files',
    logs: '/secret-admin/logs',
    settings: '/secret-admin/settings',
    profile: '/secret-admin/profile',
  },
} as const;
