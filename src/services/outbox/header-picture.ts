/**
 * A weekly digest's header picture (the week's papers by family), drawn when its first message is
 * sent: the outbox stores only what to draw. Drawing never holds the digest back: when it fails the
 * message goes without the picture, once, like any other (its nonce is the same either way).
 */
import type { Logger } from '../../core/log.ts';
import {
  digestPictureAlt,
  digestPictureName,
  digestWeekSpec,
  type DigestPicture,
} from '../../core/pictures/digest-week.ts';
import type { Reply, ReplyFile } from '../../core/reply.ts';
import { drawChart, pictureFile, tryDraw } from '../render/picture.ts';

export type DrawDigestPicture = (p: DigestPicture) => Promise<ReplyFile>;

export const drawDigestPicture: DrawDigestPicture = async (p) =>
  pictureFile(await drawChart(digestWeekSpec(p)), digestPictureName(p), digestPictureAlt(p));

/** The message with its picture attached (shown above the paper cards), or as it was when drawing failed. */
export async function withDigestPicture(
  reply: Reply,
  picture: DigestPicture,
  log: Logger,
  draw: DrawDigestPicture = drawDigestPicture,
): Promise<Reply> {
  const file = await tryDraw(log, 'digest header', () => draw(picture));
  return file ? { ...reply, files: [...(reply.files ?? []), file] } : reply;
}
