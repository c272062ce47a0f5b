/**
 * shared/ compiles with neither DOM nor Node types, so it cannot lean on either host. The few
 * web-standard globals that both hosts provide, and that shared/ uses, are declared here: only
 * the members it reads.
 */
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
}
