#version 330 core
// Shadow-map pass: depth only (the colour output is unused).
out vec4 fragColor;
void main() {
    fragColor = vec4(1.0);
}
