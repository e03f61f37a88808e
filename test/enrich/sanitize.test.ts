import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeDescription } from '../../src/enrich/sanitize.ts';

// Classic XSS vectors (OWASP cheat-sheet style), each must come out inert.
const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><script>alert(1)</script></mtext></math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="//evil.example">x</a>',
  '<p style="background:url(javascript:alert(1))" class="x">styled</p>',
  '<div onclick="alert(1)" onmouseover="alert(2)">hover</div>',
  '<body onload=alert(1)>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)";</style>',
  '<base href="javascript:alert(1)//">',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</script>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<template><script>alert(1)</script></template>',
  '<a href="https://ok.example" target="_blank" onclick="x()">ok</a>',
  '<img src="https://ok.example/x.png">',
  '"><script>alert(1)</script>',
  '<!--<script>alert(1)</script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
];

function assertInert(out: string): void {
  expect(out).not.toMatch(
    /<\s*(script|iframe|svg|math|object|embed|style|form|input|meta|link|base|img|video|source|template|noscript|body)\b/i,
  );
  expect(out).not.toMatch(/\son[a-z]+\s*=/i);
  expect(out).not.toMatch(/(?:href|src|action)\s*=\s*["']?\s*(?:javascript|data|vbscript):/i);
  expect(out).not.toMatch(/\s(?:style|class)\s*=/i);
}

describe('sanitizeDescription', () => {
  it.each(VECTORS)('%s is inert and idempotent', (input) => {
    const out = sanitizeDescription(input);
    assertInert(out);
    expect(sanitizeDescription(out)).toBe(out);
  });

  it('keeps the allowed structure and safe links', () => {
    expect(
      sanitizeDescription(
        '<h2>Role</h2><ul><li><strong>Go</strong></li></ul><a href="https://x.example/a">apply</a>',
      ),
    ).toBe(
      '<h2>Role</h2><ul><li><strong>Go</strong></li></ul><a href="https://x.example/a" rel="nofollow noopener">apply</a>',
    );
    expect(sanitizeDescription('<a href="mailto:jobs@x.example">mail</a>')).toBe(
      '<a href="mailto:jobs@x.example" rel="nofollow noopener">mail</a>',
    );
    expect(sanitizeDescription('<a href="javascript:alert(1)">x</a>')).toBe(
      '<a rel="nofollow noopener">x</a>',
    );
  });

  it('is idempotent and inert on arbitrary strings and on generated markup', () => {
    const tag = fc.constantFrom(
      'p',
      'a',
      'script',
      'svg',
      'iframe',
      'div',
      'img',
      'li',
      'style',
      'b',
      'math',
    );
    const attr = fc.constantFrom(
      ' onclick="x()"',
      ' href="javascript:alert(1)"',
      ' href="https://a.example"',
      ' style="color:red"',
      ' class="c"',
      ' src="data:text/html,x"',
      '',
    );
    const markup = fc
      .array(fc.tuple(tag, attr, fc.string({ maxLength: 12 })), { maxLength: 6 })
      .map((parts) => parts.map(([t, a, txt]) => `<${t}${a}>${txt}</${t}>`).join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), markup), (input) => {
        const out = sanitizeDescription(input);
        assertInert(out);
        expect(sanitizeDescription(out)).toBe(out);
        htmlToText(out);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('htmlToText', () => {
  it('turns blocks into lines, list items into dashes, and decodes entities', () => {
    expect(
      htmlToText(
        sanitizeDescription('<p>Tom &amp; Jerry</p><ul><li>One</li><li>Two &lt;3</li></ul><p>End</p>'),
      ),
    ).toBe('Tom & Jerry\n- One\n- Two <3\n\nEnd');
  });
  it('drops script and style bodies if handed unsanitised markup', () => {
    expect(htmlToText('<p>a</p><script>alert(1)</script><style>p{}</style><p>b</p>')).toBe('a\nb');
  });
});
