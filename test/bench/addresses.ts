// The benchmarks' visitors' client addresses: each its own, as real traffic is.

/** The n-th visitor's address: 10.0.0.0/8, one each for 16 million requests. */
export const visitorAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
