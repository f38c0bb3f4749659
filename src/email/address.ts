/**
 * Email address syntax as mail systems accept it: a dot-atom local part of at most 64 characters,
 * `@`, and a DNS name of labels with a top-level label of letters. The client's own rule (the
 * sandbox has its own: they share no code). Pure.
 */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function isEmailAddress(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  return local.length <= 64 && LOCAL.test(local) && domain.length <= 253 && DOMAIN.test(domain);
}
