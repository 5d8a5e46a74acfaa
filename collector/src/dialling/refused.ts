/** A number the account may not dial or text: said to the member in words. */
export class DiallingRefused extends Error {}

/** The hour's limit of calls or texts is reached: 429, with when to try again. */
export class DialLimitReached extends DiallingRefused {
  readonly httpStatus = 429;

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
