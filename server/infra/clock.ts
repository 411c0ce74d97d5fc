/** Business rules take a clock instead of reading Date.now(), so windows and expiries are testable. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
