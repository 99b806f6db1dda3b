#version 330 core
// Scene background image, stretched over the viewport (sRGB texture, decoded to linear on fetch).
in vec2 vUV;
uniform sampler2D uImage;
out vec4 fragColor;
void main() {
    // The image's first row is its top: flip v because GL's window origin is bottom-left.
    fragColor = vec4(texture(uImage, vec2(vUV.x, 1.0 - vUV.y)).rgb, 1.0);
}
