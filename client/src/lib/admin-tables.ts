/** The admin tables' page: 25 rows, the server's default (admin spec section 9). */
export const PAGE_SIZE = 25;

/** Admin success messages clear after 5 s (admin spec sections 8 and 9). */
export const MESSAGE_MS = 5000;
