import { describe, expect, it } from 'vitest';
import { safeProse } from '../../../electron/core/findings/markdown-prose';

describe('safeProse', () => {
  it('keeps ordinary Markdown as written', () => {
    const text =
      '**Bold**, _it_, a [link](https://example.org/a?b=1&c=2) and A & B.\n\n- one\n- two';
    expect(safeProse(text)).toBe(text);
  });

  it('turns raw HTML into text', () => {
    expect(safeProse('<img src=x onerror=alert(1)> and <script>alert(2)</script>')).toBe(
      '&lt;img src=x onerror=alert(1)> and &lt;script>alert(2)&lt;/script>',
    );
    expect(safeProse('<javascript:alert(1)>')).toBe('&lt;javascript:alert(1)>');
  });

  it('keeps character references from spelling a tag or a scheme', () => {
    expect(safeProse('&lt;img onerror=x&gt; [x](&#106;avascript:alert(1))')).toBe(
      '&amp;lt;img onerror=x&amp;gt; [x](&amp;#106;avascript:alert(1))',
    );
  });

  it('breaks links and definitions to script, data and file addresses, however spelled', () => {
    expect(safeProse('[x](javascript:alert(1))')).toBe('[x]\\(javascript:alert(1))');
    expect(safeProse('[x]( JavaScript:alert(1))')).toBe('[x]\\( JavaScript:alert(1))');
    expect(safeProse('[x](java\\script\\:alert(1))')).toBe('[x]\\(java\\script\\:alert(1))');
    expect(safeProse('[x](\u0001javascript:alert(1))')).toBe('[x]\\(\u0001javascript:alert(1))');
    expect(safeProse('![i](data:text/html;base64,PHNjcmlwdD4=)')).toBe(
      '![i]\\(data:text/html;base64,PHNjcmlwdD4=)',
    );
    expect(safeProse('[x]: vbscript:msgbox')).toBe('[x]\\: vbscript:msgbox');
    expect(safeProse('[ok](mailto:a@b.c) [rel](./notes.md#x)')).toBe(
      '[ok](mailto:a@b.c) [rel](./notes.md#x)',
    );
  });

  it('leaves code alone: fenced blocks and code spans show their text as it is', () => {
    expect(safeProse('use `<think>` tags')).toBe('use `<think>` tags');
    expect(safeProse('```html\n<img src=x>\n```\n<b>')).toBe('```html\n<img src=x>\n```\n&lt;b>');
    expect(safeProse('~~~~\n<i>\n~~~\n~~~~~\n<i>')).toBe('~~~~\n<i>\n~~~\n~~~~~\n&lt;i>');
  });

  it('does not take for code what a renderer would not', () => {
    // An escaped backtick opens no code span.
    expect(safeProse('\\`<img onerror=x>`')).toBe('\\`&lt;img onerror=x>`');
    // A table splits cells before it finds code spans.
    expect(safeProse('| `a | <img onerror=x>` |')).toBe('| `a | &lt;img onerror=x>` |');
    // A backtick fence whose info string holds a backtick is a paragraph.
    expect(safeProse('```a`\n<img onerror=x>')).toBe('```a`\n&lt;img onerror=x>');
    // Unmatched backticks are text.
    expect(safeProse('``<img onerror=x>`')).toBe('``&lt;img onerror=x>`');
  });

  it('splits lines where a renderer does, at a lone CR too', () => {
    expect(safeProse('a\r```\r<i>\r```\r<b>')).toBe('a\n```\n<i>\n```\n&lt;b>');
  });

  it('closes a fence left open, so it cannot swallow the rest of the export', () => {
    expect(safeProse('````\n<i>')).toBe('````\n<i>\n````');
  });
});
