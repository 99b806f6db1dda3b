#version 330 core
// Final pass: linear resolved colour -> sRGB-encoded 8-bit output (IEC 61966-2-1 transfer function).
in vec2 vUV;
uniform sampler2D uColor;
out vec4 fragColor;

vec3 encodeSRGB(vec3 c) {
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

void main() {
    vec4 linear = texture(uColor, vUV);
    fragColor = vec4(encodeSRGB(linear.rgb), clamp(linear.a, 0.0, 1.0));
}
