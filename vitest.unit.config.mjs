export default { test: { include: ['test/**/*.test.ts'] } };
